import AppStoreServer
import Foundation

/// What a lifecycle event says (its `data`), the same shape for every lifecycle type: what happened to
/// which purchase, when by Apple's signed dates, the entitlements it touches, the offer and, for a charge
/// or a refund, the money. Fields absent from a type's event are left out.
struct LifecycleData: Encodable, Equatable {
    /// When it happened, by Apple's dates: a charge's `purchaseDate`, a refund's `revocationDate`, else the
    /// signed date of the data that showed it (for one the history implies, the date it must have happened).
    var occurredAt: Date
    var originalTransactionId: String
    var transactionId: String?
    var productId: String
    var productType: String
    var subscriptionGroupIdentifier: String?
    /// The catalog's entitlements the product unlocks (none when the catalog does not list it).
    var entitlements: [String]
    /// Apple's storefront (ISO 3166-1 alpha-3) of the purchase.
    var storefront: String?
    /// What the period is: trial, introductory, promotional, offerCode, winBack, retention (an offer of
    /// Apple's `offerType` 5) or normal.
    var periodType: LifecyclePeriodType?
    var offer: LifecycleOffer?
    var expiresDate: Date?
    /// For a subscription's charge: when the period it pays for starts (a renewal charged early starts at
    /// the end of the period before), so the period is `periodStart` to `expiresDate`.
    var periodStart: Date?
    /// For a charge that begins a subscription: `initialBuy` (the customer's first in the series) or
    /// `resubscribe` (a return after it lapsed), as Apple's `SUBSCRIBED` subtypes say.
    var subscribed: LifecycleRules.Subscribed?
    /// Whether the subscription renews at `expiresDate`, as Apple last said.
    var autoRenewStatus: Bool?
    /// For `subscription.expired` and `subscription.renewalCancelled`: why, when Apple says
    /// (`expirationIntent`).
    var reason: LifecycleReason?
    var productChange: ProductChange?
    var money: Money?
    /// For `subscription.extended`: by how many days the renewal date moved.
    var extendedByDays: Int?
    /// For `purchase.refunded`: Apple's `revocationPercentage` in milliunits (100000 is all of it).
    var refundPercentage: Int?
    /// For `purchase.transferred`: the customer the purchase was linked to before (the event's customer is the new one).
    var previousCustomerId: String?
    /// True for an event the customer's history implies but no data Storegate applied showed by itself
    /// (a billing issue before an expiry for billing, when the failure's notification is later or lost).
    var implied: Bool?
    /// For an upgrade made at once: the period it ends early (the metrics stop counting it now).
    var replacedPeriod: ReplacedPeriod?
    /// True for a family member's access to a purchase shared with Family Sharing (no money: the purchaser paid).
    var familyShared: Bool?
}

/// What a subscription's period is, in the tenant's words.
public enum LifecyclePeriodType: String, Sendable, CaseIterable, Codable {
    case trial, introductory, promotional, offerCode, winBack, retention, normal

    /// The period of a transaction with this offer: a free introductory offer is a trial.
    init(offerType: OfferType?, discount: OfferDiscountType?) {
        switch offerType {
        case nil: self = .normal
        case .introductoryOffer?: self = discount == .freeTrial ? .trial : .introductory
        case .promotionalOffer?: self = .promotional
        case .offerCode?: self = .offerCode
        case .winBackOffer?: self = .winBack
        case .retentionOffer?: self = .retention
        default: self = .promotional
        }
    }
}

/// The offer a transaction was bought or renewed with, as Apple signed it.
struct LifecycleOffer: Encodable, Equatable {
    /// Apple's `offerType` number, and its name when this build knows it.
    var type: Int32
    var name: String?
    var identifier: String?
    /// FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT or ONE_TIME.
    var discountType: String?
    /// ISO 8601 duration of the whole offer, such as P1M.
    var period: String?
}

/// Why a subscription will not renew or has expired, from Apple's `expirationIntent`.
public enum LifecycleReason: String, Sendable, CaseIterable, Codable {
    case voluntary, billingError, priceIncrease, productUnavailable, other

    init?(_ intent: ExpirationIntent?) {
        switch intent {
        case nil: return nil
        case .customerCancelled?: self = .voluntary
        case .billingError?: self = .billingError
        case .customerDidNotConsentToPriceIncrease?: self = .priceIncrease
        case .productNotAvailable?: self = .productUnavailable
        default: self = .other
        }
    }
}

/// A change of product in a subscription group.
struct ProductChange: Encodable, Equatable {
    enum Direction: String, Encodable {
        case upgrade, downgrade, crossgrade
    }
    var from: String
    var to: String
    /// By the catalog's levels when both products have one; else Apple's rule: a change that takes effect at
    /// once is an upgrade, one at the next renewal a downgrade.
    var direction: Direction
}

/// A subscription period an upgrade ended before its expiry: its transaction, dates and price.
struct ReplacedPeriod: Encodable, Equatable {
    var transactionId: String
    var periodStart: Date?
    var expiresDate: Date
    var price: Int64?
}
