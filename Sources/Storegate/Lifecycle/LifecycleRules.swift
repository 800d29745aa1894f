import AppStoreServer
import Foundation

/// How Apple's signed facts become lifecycle events: pure rules over what storing a purchase changed.
///
/// Two kinds of fact make events, each exactly once whatever brings it (a notification, its redelivery,
/// a sweep of Apple's history, a status refresh):
/// - a transaction seen for the first time is a charge (`charge`): one event, named by the transaction
///   and the series' stored history before it (by purchase date, not by arrival);
/// - a subscription's state replaced by newer signed data is a change (`changes`): events for what
///   differs between the state before and after. Older data never replaces newer, so a notification
///   applied after a newer one changes nothing, and what the newer one implies (a billing issue before an
///   expiry for billing) is said with it.
enum LifecycleRules {
    /// What a new transaction of an auto-renewable subscription is, given the series' stored transactions
    /// and the subscription's state before this data (nil when unknown or not applied): its event type
    /// and, for a change of product, the product before.
    static func charge(
        _ t: SeriesTransaction, originalTransactionId: String, series: [SeriesTransaction], before: SubscriptionChange.State?
    ) -> (kind: Event.Kind, changedFrom: String?, subscribed: Subscribed?) {
        let period = t.periodType
        let started: Event.Kind =
            switch period {
            case .trial: .subscriptionTrialStarted
            case .normal: .subscriptionStarted
            default: .subscriptionOfferStarted
            }
        guard let previous = SeriesTransaction.previous(of: t, in: series) else {
            // The series' history before it is not stored: a renewal is still a renewal.
            let renewal = t.transactionId != originalTransactionId && t.transactionReason == .renewal
            return renewal ? (.subscriptionRenewed, nil, nil) : (started, nil, .initialBuy)
        }
        if t.transactionReason != .renewal {
            // Bought by the customer: after the last period ended, a return; while it ran, a change of product.
            if let ended = previous.expiresDate, let bought = t.purchaseDate, ended <= bought {
                return (period == .normal ? .subscriptionResubscribed : started, nil, .resubscribe)
            }
            if t.productId != previous.productId { return (.subscriptionProductChanged, previous.productId, nil) }
            return (period == .normal ? .subscriptionRenewed : .subscriptionOfferStarted, nil, nil)
        }
        if t.productId != previous.productId { return (.subscriptionProductChanged, previous.productId, nil) }
        if let before, before.status == .billingRetry || before.status == .billingGracePeriod { return (.subscriptionBillingRecovered, nil, nil) }
        if previous.periodType == .trial && period != .trial { return (.subscriptionTrialConverted, nil, nil) }
        if period != .normal && (previous.offerType != t.offerType || previous.offerIdentifier != t.offerIdentifier) {
            return (.subscriptionOfferStarted, nil, nil)
        }
        return (.subscriptionRenewed, nil, nil)
    }

    /// How a charge began a subscription, in Apple's words: the customer's first in the group
    /// (`INITIAL_BUY`), or a return after it lapsed (`RESUBSCRIBE`).
    enum Subscribed: String, Encodable {
        case initialBuy, resubscribe
    }

    /// When a subscription charge's period starts: a renewal charged before the last period ended starts
    /// at its end; anything else when it was bought.
    static func periodStart(_ t: SeriesTransaction, series: [SeriesTransaction]) -> Date? {
        guard let bought = t.purchaseDate else { return nil }
        guard t.transactionReason == .renewal, let ended = SeriesTransaction.previous(of: t, in: series)?.expiresDate else { return bought }
        return max(bought, ended)
    }

    /// A change of the subscription's state as events say it.
    struct Change: Equatable {
        var kind: Event.Kind
        var reason: LifecycleReason? = nil
        /// The history implies it; no data applied showed it by itself.
        var implied = false
        /// When it happened, if not when the data was signed.
        var occurredAt: Date? = nil
        var productChange: (from: String, to: String)? = nil

        static func == (a: Change, b: Change) -> Bool {
            a.kind == b.kind && a.reason == b.reason && a.implied == b.implied && a.occurredAt == b.occurredAt
                && a.productChange?.from == b.productChange?.from && a.productChange?.to == b.productChange?.to
        }
    }

    /// The events a replaced state makes, in the order they happened; none for a first sighting (its
    /// transaction's charge says it) or for data that changed nothing. `newTransaction`: the data brought a
    /// transaction not seen before (its charge is the event for a renewal, a recovery, a return).
    static func changes(_ change: SubscriptionChange, newTransaction: Bool) -> [Change] {
        guard let p = change.previous else { return [] }
        let c = change.current
        var out: [Change] = []
        let expiring = c.status == .expired && p.status != .expired && p.status != .revoked
        let reason = LifecycleReason(c.renewal.expirationIntent)
        let retrying: Set<Status> = [.billingRetry, .billingGracePeriod]

        // Renewal turned off or on by the customer (Apple turns it off itself when billing gives up, or the
        // customer did not consent to a price increase: the expiry says those).
        if p.autoRenewStatus == true, c.autoRenewStatus == false, !expiring || reason == .voluntary || reason == nil {
            out.append(Change(kind: .subscriptionRenewalCancelled, reason: reason, implied: expiring))
        }
        if p.autoRenewStatus == false, c.autoRenewStatus == true, p.status != .expired, !newTransaction {
            out.append(Change(kind: .subscriptionRenewalEnabled))
        }
        // A change of product at the next renewal, scheduled or taken back (not a change made now).
        if c.productId == p.productId, let next = c.renewal.autoRenewProductId, next != p.renewal.autoRenewProductId, p.renewal.autoRenewProductId != nil {
            out.append(
                next == c.productId
                    ? Change(kind: .subscriptionProductChangeCancelled, productChange: (p.renewal.autoRenewProductId ?? c.productId, next))
                    : Change(kind: .subscriptionProductChangeScheduled, productChange: (c.productId, next)))
        }
        // A price increase: asked, consented to (or notified of one that needs no consent).
        let (was, now) = (p.renewal.priceIncreaseStatus, c.renewal.priceIncreaseStatus)
        if now == .customerHasNotResponded, was != .customerHasNotResponded {
            out.append(Change(kind: .subscriptionPriceIncreasePending))
        } else if now == .customerConsentedOrWasNotifiedWithoutNeedingConsent,
            was == .customerHasNotResponded || (was == nil && (c.renewal.renewalPrice ?? 0) > (p.renewal.renewalPrice ?? 0))
        {
            out.append(Change(kind: .subscriptionPriceIncreaseConsented))
        }
        // Billing: a failed renewal, with or without a grace period; the grace period over unrecovered.
        if p.status == .active, retrying.contains(c.status) {
            out.append(Change(kind: .subscriptionBillingIssue, occurredAt: p.expiresDate))
            if c.status == .billingGracePeriod { out.append(Change(kind: .subscriptionGracePeriodEntered)) }
        }
        if p.status == .billingGracePeriod, c.status == .billingRetry || c.status == .expired {
            out.append(Change(kind: .subscriptionGracePeriodEnded))
        }
        // The end, with what led to it when no data said so before.
        if expiring {
            if reason == .billingError, p.status == .active {
                out.append(Change(kind: .subscriptionBillingIssue, implied: true, occurredAt: p.expiresDate))
            }
            if reason == .priceIncrease { out.append(Change(kind: .subscriptionPriceIncreaseRefused, implied: true)) }
            out.append(Change(kind: .subscriptionExpired, reason: reason))
        }
        // A renewal date moved by Apple (Extend a Subscription Renewal Date): the same period, ending later.
        if !newTransaction, c.renewal.latestTransactionId == p.renewal.latestTransactionId, let before = p.expiresDate, let after = c.expiresDate,
            after > before, !expiring
        {
            out.append(Change(kind: .subscriptionExtended))
        }
        return out
    }

    /// Upgrade, downgrade or crossgrade from `from` to `to`: by the catalog's levels when it has both (1 is
    /// the highest); else, as Apple's subtypes, a change made at once (a purchase) is an upgrade and one at
    /// the next renewal a downgrade.
    static func direction(from: String, to: String, bundleId: String, catalog: Catalog, atOnce: Bool) -> ProductChange.Direction {
        if let old = catalog.product(bundleId: bundleId, productId: from)?.level, let new = catalog.product(bundleId: bundleId, productId: to)?.level {
            return new < old ? .upgrade : new > old ? .downgrade : .crossgrade
        }
        return atOnce ? .upgrade : .downgrade
    }
}
