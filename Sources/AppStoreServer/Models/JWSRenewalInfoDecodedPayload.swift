import Foundation

/// `JWSRenewalInfoDecodedPayload`, as Apple defines it.
public struct JWSRenewalInfoDecodedPayload: Codable, Hashable, Sendable {
    /// The reason the subscription expired.
    public var expirationIntent: ExpirationIntent?
    /// The original transaction identifier of a purchase.
    public var originalTransactionId: String?
    /// The product identifier of the product that will renew at the next billing period.
    public var autoRenewProductId: String?
    /// The unique identifier for the product, that you create in App Store Connect.
    public var productId: String?
    /// The renewal status of the auto-renewable subscription.
    public var autoRenewStatus: AutoRenewStatus?
    /// A Boolean value that indicates whether the App Store is attempting to automatically renew an expired subscription.
    public var isInBillingRetryPeriod: Bool?
    /// The status that indicates whether the auto-renewable subscription is subject to a price increase.
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// The time when the billing grace period for subscription renewals expires.
    public var gracePeriodExpiresDate: Timestamp?
    /// The type of subscription offer.
    public var offerType: OfferType?
    /// The offer code or the promotional offer identifier.
    public var offerIdentifier: String?
    /// The UNIX time, in milliseconds, that the App Store signed the JSON Web Signature data.
    public var signedDate: Timestamp?
    /// The server environment, either sandbox or production.
    public var environment: AppStoreEnvironment?
    /// The earliest start date of a subscription in a series of auto-renewable subscription purchases that ignores all lapses of paid service shorter than 60 days.
    public var recentSubscriptionStartDate: Timestamp?
    /// The UNIX time, in milliseconds, when the most recent auto-renewable subscription purchase expires.
    public var renewalDate: Timestamp?
    /// The currency code for the renewalPrice of the subscription.
    public var currency: String?
    /// The renewal price, in milliunits, of the auto-renewable subscription that renews at the next billing period.
    public var renewalPrice: Int64?
    /// The payment mode you configure for the offer.
    public var offerDiscountType: OfferDiscountType?
    /// An array of win-back offer identifiers that a customer is eligible to redeem, which sorts the identifiers to present the better offers first.
    public var eligibleWinBackOfferIds: [String]?
    /// The UUID that an app optionally generates to map a customer’s in-app purchase with its resulting App Store transaction.
    public var appAccountToken: LowercaseUUID?
    /// The unique identifier of the app download transaction.
    public var appTransactionId: String?
    /// The duration of the offer.
    public var offerPeriod: String?
    /// Renewal information that is present only for Advanced Commerce SKUs.
    public var advancedCommerceInfo: AdvancedCommerceRenewalInfo?
    public var commitmentInfo: RenewalCommitmentInfo?
    public var renewalBillingPlanType: RenewalBillingPlanType?

    public init(
        expirationIntent: ExpirationIntent? = nil, originalTransactionId: String? = nil, autoRenewProductId: String? = nil, productId: String? = nil,
        autoRenewStatus: AutoRenewStatus? = nil, isInBillingRetryPeriod: Bool? = nil, priceIncreaseStatus: PriceIncreaseStatus? = nil,
        gracePeriodExpiresDate: Timestamp? = nil, offerType: OfferType? = nil, offerIdentifier: String? = nil, signedDate: Timestamp? = nil,
        environment: AppStoreEnvironment? = nil, recentSubscriptionStartDate: Timestamp? = nil, renewalDate: Timestamp? = nil, currency: String? = nil,
        renewalPrice: Int64? = nil, offerDiscountType: OfferDiscountType? = nil, eligibleWinBackOfferIds: [String]? = nil,
        appAccountToken: LowercaseUUID? = nil, appTransactionId: String? = nil, offerPeriod: String? = nil,
        advancedCommerceInfo: AdvancedCommerceRenewalInfo? = nil, commitmentInfo: RenewalCommitmentInfo? = nil,
        renewalBillingPlanType: RenewalBillingPlanType? = nil
    ) {
        self.expirationIntent = expirationIntent
        self.originalTransactionId = originalTransactionId
        self.autoRenewProductId = autoRenewProductId
        self.productId = productId
        self.autoRenewStatus = autoRenewStatus
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.priceIncreaseStatus = priceIncreaseStatus
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.signedDate = signedDate
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.currency = currency
        self.renewalPrice = renewalPrice
        self.offerDiscountType = offerDiscountType
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.advancedCommerceInfo = advancedCommerceInfo
        self.commitmentInfo = commitmentInfo
        self.renewalBillingPlanType = renewalBillingPlanType
    }
}
