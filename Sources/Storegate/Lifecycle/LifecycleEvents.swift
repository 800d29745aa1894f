import AppStoreServer
import Foundation

/// Makes lifecycle events in the unit of work that stores what caused them (so they exist exactly when it
/// committed), from `LifecycleRules`, the tenant's catalog (entitlements, levels, commission, tax) and the
/// series' stored history (what a charge is, and the days of paid service behind its commission).
public enum LifecycleEvents {
    /// The event types of the lifecycle layer, in the order docs/API.md lists them.
    public static let kinds: [Event.Kind] = [
        .subscriptionStarted, .subscriptionTrialStarted, .subscriptionOfferStarted, .subscriptionResubscribed, .subscriptionRenewed,
        .subscriptionTrialConverted, .subscriptionRenewalCancelled, .subscriptionRenewalEnabled, .subscriptionBillingIssue,
        .subscriptionGracePeriodEntered, .subscriptionGracePeriodEnded, .subscriptionBillingRecovered, .subscriptionExpired,
        .subscriptionProductChangeScheduled, .subscriptionProductChangeCancelled, .subscriptionProductChanged, .subscriptionPriceIncreasePending,
        .subscriptionPriceIncreaseConsented, .subscriptionPriceIncreaseRefused, .subscriptionExtended, .purchaseOneTime, .purchaseConsumable,
        .purchaseRefunded, .purchaseRefundReversed, .purchaseFamilyRevoked, .purchaseTransferred,
    ]

    /// The types whose events can carry money: the charges (`LifecycleRules.charge`'s names and the
    /// one-time purchases) and refunds with their reversals.
    public static let priced: Set<Event.Kind> = [
        .subscriptionStarted, .subscriptionTrialStarted, .subscriptionOfferStarted, .subscriptionResubscribed, .subscriptionRenewed,
        .subscriptionTrialConverted, .subscriptionBillingRecovered, .subscriptionProductChanged, .purchaseOneTime, .purchaseConsumable,
        .purchaseRefunded, .purchaseRefundReversed,
    ]

    /// The events storing `purchase` made: its charge when its transaction is `new`, and what `change` (the
    /// subscription's state replaced, when it was) changed. Reads the catalog only when there is an event;
    /// `series` is the series' stored history, read for a new subscription transaction (with it).
    static func stored(
        _ purchase: SignedPurchase, app: App, customer: UUID?, new: Bool, change: SubscriptionChange?, signedDate: Date, series: [SeriesTransaction],
        in unit: any TenantUnit
    ) async throws -> [NewEvent] {
        let changes = change.map { LifecycleRules.changes($0, newTransaction: new) } ?? []
        guard new || !changes.isEmpty else { return [] }
        let catalog = try await unit.catalog.catalog() ?? Catalog()
        let t = purchase.transaction
        let me = SeriesTransaction(t, transactionId: purchase.transactionId)
        let data = base(purchase, me: me, app: app, catalog: catalog, occurredAt: signedDate)
        var events: [NewEvent] = []
        func append(_ kind: Event.Kind, _ data: LifecycleData) throws {
            events.append(try NewEvent(kind, appId: app.id, environment: purchase.environment, customer: customer, data: data))
        }
        if new {
            var charge = data
            charge.occurredAt = me.purchaseDate ?? signedDate
            let kind: Event.Kind
            if purchase.isSubscription {
                let (named, from, subscribed) = LifecycleRules.charge(
                    me, originalTransactionId: purchase.originalTransactionId, series: series, before: change?.previous)
                kind = named
                charge.subscribed = subscribed
                charge.periodStart = LifecycleRules.periodStart(me, series: series)
                if from != nil, me.transactionReason != .renewal, let replaced = SeriesTransaction.previous(of: me, in: series),
                    let ended = replaced.expiresDate, ended > (me.purchaseDate ?? ended)
                {
                    // An upgrade ends the period it replaces now.
                    charge.replacedPeriod = ReplacedPeriod(
                        transactionId: replaced.transactionId, periodStart: LifecycleRules.periodStart(replaced, series: series), expiresDate: ended,
                        price: replaced.price)
                }
                if let from {
                    charge.productChange = ProductChange(
                        from: from, to: me.productId,
                        direction: LifecycleRules.direction(
                            from: from, to: me.productId, bundleId: app.bundleId, catalog: catalog, atOnce: me.transactionReason != .renewal))
                }
                charge.money = money(me, storefront: t.storefront, familyShared: t.inAppOwnershipType == .familyShared, series: series, catalog: catalog)
            } else {
                kind = me.productType == .consumable ? .purchaseConsumable : .purchaseOneTime
                charge.money = money(me, storefront: t.storefront, familyShared: t.inAppOwnershipType == .familyShared, series: [], catalog: catalog)
            }
            try append(kind, charge)
        }
        for c in changes {
            var said = data
            said.reason = c.reason
            said.implied = c.implied ? true : nil
            said.occurredAt = c.occurredAt ?? signedDate
            if let (from, to) = c.productChange {
                said.productChange = ProductChange(
                    from: from, to: to, direction: LifecycleRules.direction(from: from, to: to, bundleId: app.bundleId, catalog: catalog, atOnce: false))
            }
            if c.kind == .subscriptionExtended, let before = change?.previous?.expiresDate, let after = change?.current.expiresDate {
                // Storegate's own request says it (`extended` below), whichever of the two commits first.
                if try await unit.extensions.requested(appId: app.id, originalTransactionId: purchase.originalTransactionId, expiresDate: after) {
                    continue
                }
                said.extendedByDays = Int((after.timeIntervalSince(before) / 86_400).rounded())
            }
            try append(c.kind, said)
        }
        return events
    }

    /// The event of Apple's decision on a purchase (`REFUND`, `REFUND_REVERSED`, `REVOKE`): a refund takes
    /// its share of the price back (negative money), a reversal gives it back; nil for a declined refund.
    static func refund(_ outcome: RefundOutcome, purchase: SignedPurchase, app: App, in unit: any TenantUnit) async throws -> NewEvent? {
        let kind: Event.Kind
        switch outcome.outcome {
        case .refund: kind = .purchaseRefunded
        case .refundReversed: kind = .purchaseRefundReversed
        case .revoke: kind = .purchaseFamilyRevoked
        default: return nil
        }
        let catalog = try await unit.catalog.catalog() ?? Catalog()
        let me = SeriesTransaction(purchase.transaction, transactionId: purchase.transactionId)
        var data = base(purchase, me: me, app: app, catalog: catalog, occurredAt: outcome.revocationDate ?? outcome.signedDate ?? Date())
        if kind != .purchaseFamilyRevoked {
            // A reversal gives back the share the last refund took (Apple drops `revocationPercentage` with it).
            var share = outcome.refundPercentage ?? 100_000
            if kind == .purchaseRefundReversed {
                let refunds = try await unit.refunds.outcomes(appId: app.id, transactionId: purchase.transactionId, customer: nil, limit: 20)
                share = refunds.first { $0.outcome == .refund }?.refundPercentage ?? share
            }
            data.refundPercentage = share
            let series = purchase.isSubscription ? try await unit.transactions.series(appId: app.id, originalTransactionId: purchase.originalTransactionId) : []
            if purchase.isSubscription { data.periodStart = LifecycleRules.periodStart(me, series: series) }
            var paid = me
            paid.revocationDate = nil
            if var money = money(paid, storefront: purchase.transaction.storefront, familyShared: false, series: series, catalog: catalog) {
                let sign: Int64 = kind == .purchaseRefunded ? -1 : 1
                let price = sign * (money.price * Int64(share) / 100_000)
                money = Money(price: price, currency: money.currency, rule: money.commissionRule, taxBasisPoints: money.taxBasisPoints)
                data.money = money
            }
        }
        return try NewEvent(kind, appId: app.id, environment: purchase.environment, customer: outcome.customer, data: data)
    }

    /// `purchase.transferred`: the series `originalTransactionId` moved from `previous` to `customer`.
    static func transferred(
        appId: UUID, bundleId: String, originalTransactionId: String, from previous: String, to customer: UUID, in unit: any TenantUnit
    ) async throws -> NewEvent? {
        let series = try await unit.transactions.series(appId: appId, originalTransactionId: originalTransactionId)
        guard let latest = series.last else { return nil }
        let catalog = try await unit.catalog.catalog() ?? Catalog()
        let data = LifecycleData(
            occurredAt: Date(), originalTransactionId: originalTransactionId, transactionId: latest.transactionId, productId: latest.productId,
            productType: latest.productType.rawValue, subscriptionGroupIdentifier: nil, entitlements: catalog.entitlements(unlockedBy: latest.productId),
            storefront: nil, periodType: nil, offer: nil, expiresDate: latest.expiresDate, previousCustomerId: previous)
        let environment = try await unit.transactions.facts(appId: appId, transactionId: latest.transactionId)?.environment
        return try NewEvent(.purchaseTransferred, appId: appId, environment: environment, customer: customer, data: data)
    }

    /// `subscription.extended` for an extension Storegate asked Apple for, said by the request whatever the
    /// order: the renewal date is moved as Apple answers, and Apple's `RENEWAL_EXTENDED`, applied before or
    /// after (or beside it, reading the date as it was), leaves it to the request (`stored`).
    static func extended(
        appId: UUID, originalTransactionId: String, days: Int, effectiveDate: Date, customer: UUID?, in unit: any TenantUnit
    ) async throws
        -> NewEvent?
    {
        guard let s = try await unit.subscriptions.list(appId: appId, originalTransactionId: originalTransactionId).first else { return nil }
        let catalog = try await unit.catalog.catalog() ?? Catalog()
        let data = LifecycleData(
            occurredAt: effectiveDate, originalTransactionId: originalTransactionId, transactionId: s.latestTransactionId, productId: s.productId,
            productType: ProductType.autoRenewableSubscription.rawValue, subscriptionGroupIdentifier: s.subscriptionGroupIdentifier,
            entitlements: catalog.entitlements(unlockedBy: s.productId), storefront: nil,
            periodType: LifecyclePeriodType(offerType: s.offerType, discount: nil), offer: nil, expiresDate: s.expiresDate,
            autoRenewStatus: s.autoRenewStatus, extendedByDays: days)
        return try NewEvent(.subscriptionExtended, appId: appId, environment: s.environment, customer: customer ?? s.customer, data: data)
    }

    /// What every lifecycle event of this purchase says.
    private static func base(_ purchase: SignedPurchase, me: SeriesTransaction, app: App, catalog: Catalog, occurredAt: Date) -> LifecycleData {
        let t = purchase.transaction
        return LifecycleData(
            occurredAt: occurredAt, originalTransactionId: purchase.originalTransactionId, transactionId: purchase.transactionId, productId: me.productId,
            productType: me.productType.rawValue, subscriptionGroupIdentifier: t.subscriptionGroupIdentifier,
            entitlements: catalog.entitlements(unlockedBy: me.productId), storefront: t.storefront,
            periodType: purchase.isSubscription ? me.periodType : nil,
            offer: t.offerType.map {
                LifecycleOffer(
                    type: $0.rawValue, name: $0.name, identifier: t.offerIdentifier, discountType: t.offerDiscountType?.rawValue, period: t.offerPeriod)
            },
            expiresDate: me.expiresDate, autoRenewStatus: purchase.renewal.map { $0.autoRenewStatus == .on },
            familyShared: t.inAppOwnershipType == .familyShared ? true : nil)
    }

    /// The money of a charge: none for a family member's shared access (the purchaser paid) or when Apple
    /// gave no price.
    private static func money(_ me: SeriesTransaction, storefront: String?, familyShared: Bool, series: [SeriesTransaction], catalog: Catalog) -> Money? {
        guard !familyShared, let price = me.price, let currency = me.currency else { return nil }
        let rule = CommissionRule(
            program: catalog.commission ?? .standard, productType: me.productType, paidDays: SeriesTransaction.paidDays(before: me, in: series))
        return Money(price: price, currency: currency, rule: rule, taxBasisPoints: storefront.flatMap { catalog.taxRates?[$0] })
    }
}
