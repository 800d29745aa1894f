import AppStoreServer
import Contract
import Foundation

/// One auto-renewable subscription (by `originalTransactionId`) as Storegate last learned it from Apple.
public struct Subscription: Sendable, Equatable {
    public var appId: UUID
    public var environment: AppStoreEnvironment
    public var originalTransactionId: String
    public var subscriptionGroupIdentifier: String?
    public var customer: UUID?
    /// Apple's status as signed.
    public var status: Status
    public var productId: String
    public var latestTransactionId: String
    public var purchaseDate: Date?
    public var expiresDate: Date?
    public var autoRenewStatus: Bool?
    public var autoRenewProductId: String?
    public var inBillingRetry: Bool
    public var gracePeriodExpiresDate: Date?
    public var offerType: OfferType?
    public var offerIdentifier: String?
    public var price: Int64?
    public var currency: String?
    /// The ISO 8601 duration of the latest transaction's offer, such as `P1M`.
    public var offerPeriod: String?
    /// What the next renewal will be, from Apple's renewal info.
    public var renewal: RenewalTerms?
    /// The latest transaction's `billingPlanType`: `MONTHLY` for a 12-month commitment, `BILLED_UPFRONT`
    /// for a standard subscription; nil in data from before 2026.
    public var billingPlanType: BillingPlanType?
    /// Where a commitment stands; nil for a standard subscription.
    public var commitment: Commitment?
    /// When Apple signed the newest data applied; older data never replaces newer.
    public var signedDate: Date
    public var updatedAt: Date?

    public init(
        appId: UUID, environment: AppStoreEnvironment, originalTransactionId: String, subscriptionGroupIdentifier: String?, customer: UUID?, status: Status,
        productId: String, latestTransactionId: String, purchaseDate: Date?, expiresDate: Date?, autoRenewStatus: Bool?, autoRenewProductId: String?,
        inBillingRetry: Bool, gracePeriodExpiresDate: Date?, offerType: OfferType?, offerIdentifier: String?, price: Int64?, currency: String?,
        signedDate: Date, offerPeriod: String? = nil, renewal: RenewalTerms? = nil, billingPlanType: BillingPlanType? = nil, commitment: Commitment? = nil,
        updatedAt: Date? = nil
    ) {
        self.appId = appId
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.customer = customer
        self.status = status
        self.productId = productId
        self.latestTransactionId = latestTransactionId
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.autoRenewStatus = autoRenewStatus
        self.autoRenewProductId = autoRenewProductId
        self.inBillingRetry = inBillingRetry
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.price = price
        self.currency = currency
        self.offerPeriod = offerPeriod
        self.renewal = renewal
        self.billingPlanType = billingPlanType
        self.commitment = commitment
        self.signedDate = signedDate
        self.updatedAt = updatedAt
    }
}

/// The next renewal as Apple's renewal info describes it: its price, the offer that will apply, the win-back
/// offers the customer may redeem, whether they accepted a price increase, and why it will not renew.
public struct RenewalTerms: Sendable, Equatable, Codable {
    /// In milliunits of `currency`.
    public var renewalPrice: Int64?
    public var currency: String?
    public var offerType: OfferType?
    public var offerIdentifier: String?
    public var offerPeriod: String?
    public var eligibleWinBackOfferIds: [String]?
    public var priceIncreaseStatus: PriceIncreaseStatus?
    public var expirationIntent: ExpirationIntent?
    /// `renewalBillingPlanType`: the plan the next billing period renews on.
    public var billingPlanType: String?
    /// What happens when the commitment ends; nil outside a commitment.
    public var commitment: CommitmentRenewal?

    public init(_ info: JWSRenewalInfoDecodedPayload) {
        renewalPrice = info.renewalPrice
        currency = info.currency
        offerType = info.offerType
        offerIdentifier = info.offerIdentifier
        offerPeriod = info.offerPeriod
        eligibleWinBackOfferIds = info.eligibleWinBackOfferIds
        priceIncreaseStatus = info.priceIncreaseStatus
        expirationIntent = info.expirationIntent
        billingPlanType = info.renewalBillingPlanType?.rawValue
        commitment = info.commitmentInfo.map(CommitmentRenewal.init)
    }
}

/// A subscription as callers see it at a moment: Apple's status, with an active one past its expiry (no
/// renewal arrived) read as expired, and a grace period past its end (or any, for a 12-month commitment,
/// which Apple gives none) read as billing retry.
public struct SubscriptionState: Sendable {
    public let subscription: Subscription
    public let status: Status

    public init(_ subscription: Subscription, now: Date = Date()) {
        self.subscription = subscription
        let stored = subscription.status
        if stored == .active, let expires = subscription.expiresDate, expires < now {
            status = .expired
        } else if stored == .billingGracePeriod, let grace = subscription.gracePeriodExpiresDate, grace < now {
            status = .billingRetry
        } else if stored == .billingGracePeriod, subscription.billingPlanType == .monthly {
            // "Billing Grace Period doesn't apply to monthly subscriptions with 12-month commitments."
            status = .billingRetry
        } else {
            status = stored
        }
    }

    /// Whether the customer has access: active, or in the billing grace period.
    public var grantsAccess: Bool { status == .active || status == .billingGracePeriod }

    /// The status's name in Storegate's API.
    public var statusName: StatusName { StatusName(status) }

    /// Names of Apple's subscription statuses in Storegate's API.
    public enum StatusName: String, Sendable, CaseIterable {
        case active, expired, billingRetry, gracePeriod, revoked, unknown

        public init(_ status: Status) {
            switch status {
            case .active: self = .active
            case .expired: self = .expired
            case .billingRetry: self = .billingRetry
            case .billingGracePeriod: self = .gracePeriod
            case .revoked: self = .revoked
            default: self = .unknown
            }
        }
    }
}

/// What storing a subscription did: its state before (nil when it was new) and after.
public struct SubscriptionChange: Sendable, Equatable {
    /// The part of a subscription whose change is news to the tenant: `subscription.updated`.
    public struct State: Sendable, Equatable {
        public let status: Status
        public let productId: String
        public let expiresDate: Date?
        public let autoRenewStatus: Bool?
        /// For a 12-month commitment: the month billed, the commitment's end, and whether it renews then
        /// (a customer who cancels changes only this).
        public let billingPeriodNumber: Int32?
        public let commitmentExpiresDate: Date?
        public let commitmentAutoRenewStatus: Bool?
        /// What lifecycle events read beside it (`LifecycleRules`): the latest transaction, the product and price
        /// the next period renews at, whether the customer consented to a price increase, and why it will not
        /// renew, as Apple's renewal info last said.
        public let renewal: Renewal

        public struct Renewal: Sendable, Equatable {
            public var latestTransactionId: String?
            public var autoRenewProductId: String?
            public var gracePeriodExpiresDate: Date?
            public var renewalPrice: Int64?
            public var priceIncreaseStatus: PriceIncreaseStatus?
            public var expirationIntent: ExpirationIntent?

            public init(
                latestTransactionId: String? = nil, autoRenewProductId: String? = nil, gracePeriodExpiresDate: Date? = nil, renewalPrice: Int64? = nil,
                priceIncreaseStatus: PriceIncreaseStatus? = nil, expirationIntent: ExpirationIntent? = nil
            ) {
                self.latestTransactionId = latestTransactionId
                self.autoRenewProductId = autoRenewProductId
                self.gracePeriodExpiresDate = gracePeriodExpiresDate
                self.renewalPrice = renewalPrice
                self.priceIncreaseStatus = priceIncreaseStatus
                self.expirationIntent = expirationIntent
            }
        }

        public init(
            status: Status, productId: String, expiresDate: Date?, autoRenewStatus: Bool?, billingPeriodNumber: Int32? = nil,
            commitmentExpiresDate: Date? = nil, commitmentAutoRenewStatus: Bool? = nil, renewal: Renewal = Renewal()
        ) {
            self.status = status
            self.productId = productId
            self.expiresDate = expiresDate
            self.autoRenewStatus = autoRenewStatus
            self.billingPeriodNumber = billingPeriodNumber
            self.commitmentExpiresDate = commitmentExpiresDate
            self.commitmentAutoRenewStatus = commitmentAutoRenewStatus
            self.renewal = renewal
        }
    }

    public let previous: State?
    public let current: State

    public init(previous: State?, current: State) {
        self.previous = previous
        self.current = current
    }
}

/// The API shows its cases as the JSON Schema `enum`; any other value is refused.
extension SubscriptionState.StatusName: JSONSchemaType, Encodable {}
