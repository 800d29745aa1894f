import AppStoreServer
import Contract
import Foundation

// What status and entitlement reads answer: a customer's subscriptions and purchases, named by bundle ID.

/// A subscription as `subscriptions.status`, `entitlements.list` and `customers.sync` answer it.
@RPCObject(title: "Subscription") public struct SubscriptionStatus: Sendable {
    public let bundleId: String
    @Field(.appStoreEnvironment) public let environment: String
    public let subscriptionGroupIdentifier: String?
    public let originalTransactionId: String
    public let latestTransactionId: String
    public let productId: String
    /// An active subscription past its expiry with no renewal reads as expired.
    public let status: SubscriptionState.StatusName
    /// Apple's status: 1 active, 2 expired, 3 billing retry, 4 billing grace period, 5 revoked.
    public let statusCode: Int32
    public let purchaseDate: Date?
    public let expiresDate: Date?
    public let autoRenewStatus: Bool?
    /// The product the subscription renews to.
    public let autoRenewProductId: String?
    public let inBillingRetry: Bool
    public let gracePeriodExpiresDate: Date?
    /// Apple's offerType of the latest transaction: 1 introductory, 2 promotional, 3 offer code, 4 win-back, 5 retention.
    public let offerType: Int32?
    /// The offer type by name: introductoryOffer, promotionalOffer, offerCode, winBackOffer, retentionOffer.
    public let offer: String?
    public let offerIdentifier: String?
    /// In milliunits of the currency.
    public let price: Int64?
    /// ISO 4217.
    public let currency: String?
    /// The latest transaction's offer duration, ISO 8601 (P1M).
    public let offerPeriod: String?
    public let renewal: Renewal?
    /// The latest transaction's billing plan: MONTHLY for a monthly subscription with a 12-month commitment,
    /// BILLED_UPFRONT for a standard one; absent in data from before 2026.
    public let billingPlanType: String?
    /// Where a 12-month commitment stands; absent for a standard subscription. `autoRenewStatus` above says
    /// whether the next month renews, as Apple's does; this says whether the commitment renews.
    public let commitment: CommitmentStatus?
    public let updatedAt: Date?

    /// The next renewal, from Apple's renewal info.
    @RPCObject(title: "RenewalTerms") public struct Renewal: Sendable {
        /// The renewal price, in milliunits of the currency.
        public let price: Int64?
        /// ISO 4217.
        public let currency: String?
        /// The offer that applies at renewal, as offerType above.
        public let offerType: Int32?
        /// Its name, as offer above.
        public let offer: String?
        public let offerIdentifier: String?
        /// ISO 8601 duration of that offer.
        public let offerPeriod: String?
        /// A win-back offer the customer may redeem.
        public let eligibleWinBackOfferIds: [String]?
        /// Apple's: 0 not yet responded, 1 consented to the price increase.
        public let priceIncreaseStatus: Int32?
        /// Apple's: 1 cancelled, 2 billing error, 3 declined a price increase, 4 product unavailable, 5 other.
        public let expirationIntent: Int32?
        /// The plan the next billing period renews on: MONTHLY or BILLED_UPFRONT.
        public let billingPlanType: String?

        init(_ t: RenewalTerms) {
            price = t.renewalPrice
            currency = t.currency
            offerType = t.offerType?.rawValue
            offer = t.offerType?.name
            offerIdentifier = t.offerIdentifier
            offerPeriod = t.offerPeriod
            eligibleWinBackOfferIds = t.eligibleWinBackOfferIds
            priceIncreaseStatus = t.priceIncreaseStatus?.rawValue
            expirationIntent = t.expirationIntent?.rawValue
            billingPlanType = t.billingPlanType
        }
    }

    init(_ state: SubscriptionState, bundleId: String) {
        let r = state.subscription
        self.bundleId = bundleId
        environment = r.environment.rawValue
        subscriptionGroupIdentifier = r.subscriptionGroupIdentifier
        originalTransactionId = r.originalTransactionId
        latestTransactionId = r.latestTransactionId
        productId = r.productId
        status = state.statusName
        statusCode = state.status.rawValue
        purchaseDate = r.purchaseDate
        expiresDate = r.expiresDate
        autoRenewStatus = r.autoRenewStatus
        autoRenewProductId = r.autoRenewProductId
        inBillingRetry = r.inBillingRetry
        gracePeriodExpiresDate = r.gracePeriodExpiresDate
        offerType = r.offerType?.rawValue
        offer = r.offerType?.name
        offerIdentifier = r.offerIdentifier
        price = r.price
        currency = r.currency
        offerPeriod = r.offerPeriod
        renewal = r.renewal.map(Renewal.init)
        billingPlanType = r.billingPlanType?.rawValue
        commitment = CommitmentStatus(state)
        updatedAt = r.updatedAt
    }
}

/// A purchase of any other type (consumable, non-consumable, non-renewing subscription) that grants access.
@RPCObject(title: "Purchase") public struct OwnedPurchase: Sendable {
    public let bundleId: String
    public let environment: String
    public let productId: String
    @Field(.oneOf(["Consumable", "Non-Consumable", "Non-Renewing Subscription"])) public let type: String
    public let transactionId: String
    public let originalTransactionId: String
    public let purchaseDate: Date?
    public let expiresDate: Date?
    @Field(.minimum(1)) public let quantity: Int

    init(_ p: OneTimePurchase, bundleId: String) {
        self.bundleId = bundleId
        environment = p.environment.rawValue
        productId = p.productId
        type = p.productType.rawValue
        transactionId = p.transactionId
        originalTransactionId = p.originalTransactionId
        purchaseDate = p.purchaseDate
        expiresDate = p.expiresDate
        quantity = p.quantity
    }
}

/// What a customer may use now (`entitlements.list`).
@RPCObject public struct Entitlements: Sendable {
    public let customerId: String
    public let subscriptions: [SubscriptionStatus]
    public let purchases: [OwnedPurchase]
    /// Access support gave (`entitlements.grant`), in force now.
    public let grants: [GrantView]
    /// The entitlements these give, by the catalog's names, in its order (`ActiveEntitlements`): a product
    /// the catalog does not list gives none, and counts above by its product ID alone.
    public let active: [ActiveEntitlementView]

    /// The answer for a customer's subscriptions, purchases and grants, their apps named by bundle ID, and
    /// the entitlements they give by `catalog`.
    init(
        tenant: Tenant, customerId: String, subscriptions: [SubscriptionState], purchases: [OneTimePurchase], grants: [Grant] = [],
        catalog: Catalog = Catalog(), directory: AppDirectory
    ) async throws {
        let bundles = try await directory.bundleIds(
            tenant: tenant, covering: subscriptions.map(\.subscription.appId) + purchases.map(\.appId) + grants.compactMap(\.appId))
        self.customerId = customerId
        self.subscriptions = subscriptions.map { SubscriptionStatus($0, bundleId: bundles[$0.subscription.appId] ?? "") }
        self.purchases = purchases.map { OwnedPurchase($0, bundleId: bundles[$0.appId] ?? "") }
        self.grants = grants.map { GrantView($0, bundleId: $0.appId.flatMap { bundles[$0] }) }
        active = ActiveEntitlements(catalog: catalog, subscriptions: subscriptions, purchases: purchases, grants: grants, bundleIds: bundles)
            .entitlements.map { ActiveEntitlementView($0, bundleIds: bundles) }
    }
}
