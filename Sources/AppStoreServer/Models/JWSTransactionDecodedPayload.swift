import Foundation

/// `JWSTransactionDecodedPayload`, as Apple defines it.
public struct JWSTransactionDecodedPayload: Codable, Hashable, Sendable {
    /// The original transaction identifier of a purchase.
    public var originalTransactionId: String?
    /// The unique identifier for a transaction such as an in-app purchase, restored in-app purchase, or subscription renewal.
    public var transactionId: String?
    /// The unique identifier of subscription-purchase events across devices, including renewals.
    public var webOrderLineItemId: String?
    /// The bundle identifier of an app.
    public var bundleId: String?
    /// The unique identifier for the product, that you create in App Store Connect.
    public var productId: String?
    /// The identifier of the subscription group that the subscription belongs to.
    public var subscriptionGroupIdentifier: String?
    /// The time that the App Store charged the user’s account for an in-app purchase, a restored in-app purchase, a subscription, or a subscription renewal after a lapse.
    public var purchaseDate: Timestamp?
    /// The purchase date of the transaction associated with the original transaction identifier.
    public var originalPurchaseDate: Timestamp?
    /// The UNIX time, in milliseconds, an auto-renewable subscription expires or renews.
    public var expiresDate: Timestamp?
    /// The number of consumable products purchased.
    public var quantity: Int32?
    /// The type of the in-app purchase.
    public var type: ProductType?
    /// The UUID that an app optionally generates to map a customer’s in-app purchase with its resulting App Store transaction.
    public var appAccountToken: LowercaseUUID?
    /// A string that describes whether the transaction was purchased by the user, or is available to them through Family Sharing.
    public var inAppOwnershipType: InAppOwnershipType?
    /// The UNIX time, in milliseconds, that the App Store signed the JSON Web Signature data.
    public var signedDate: Timestamp?
    /// The reason that the App Store refunded the transaction or revoked it from Family Sharing.
    public var revocationReason: RevocationReason?
    /// The UNIX time, in milliseconds, that Apple Support refunded a transaction.
    public var revocationDate: Timestamp?
    /// The Boolean value that indicates whether the user upgraded to another subscription.
    public var isUpgraded: Bool?
    /// A value that represents the promotional offer type.
    public var offerType: OfferType?
    /// The identifier that contains the offer code or the promotional offer identifier.
    public var offerIdentifier: String?
    /// The server environment, either sandbox or production.
    public var environment: AppStoreEnvironment?
    /// The three-letter code that represents the country or region associated with the App Store storefront for the purchase.
    public var storefront: String?
    /// An Apple-defined value that uniquely identifies the App Store storefront associated with the purchase.
    public var storefrontId: String?
    /// The reason for the purchase transaction, which indicates whether it’s a customer’s purchase or a renewal for an auto-renewable subscription that the system initiates.
    public var transactionReason: TransactionReason?
    /// The three-letter ISO 4217 currency code for the price of the product.
    public var currency: String?
    /// The price, in milliunits, of the in-app purchase or subscription offer that you configured in App Store Connect.
    public var price: Int64?
    /// The payment mode you configure for the offer.
    public var offerDiscountType: OfferDiscountType?
    /// The unique identifier of the app download transaction.
    public var appTransactionId: String?
    /// The duration of the offer.
    public var offerPeriod: String?
    /// The type of the refund or revocation that applies to the transaction.
    public var revocationType: RevocationType?
    /// The percentage, in milliunits, of the transaction that the App Store has refunded or revoked.
    public var revocationPercentage: Int32?
    /// Transaction information that is present only for Advanced Commerce SKUs.
    public var advancedCommerceInfo: AdvancedCommerceTransactionInfo?
    public var billingPlanType: BillingPlanType?
    public var commitmentInfo: TransactionCommitmentInfo?

    public init(
        originalTransactionId: String? = nil, transactionId: String? = nil, webOrderLineItemId: String? = nil, bundleId: String? = nil,
        productId: String? = nil, subscriptionGroupIdentifier: String? = nil, purchaseDate: Timestamp? = nil, originalPurchaseDate: Timestamp? = nil,
        expiresDate: Timestamp? = nil, quantity: Int32? = nil, type: ProductType? = nil, appAccountToken: LowercaseUUID? = nil,
        inAppOwnershipType: InAppOwnershipType? = nil, signedDate: Timestamp? = nil, revocationReason: RevocationReason? = nil,
        revocationDate: Timestamp? = nil, isUpgraded: Bool? = nil, offerType: OfferType? = nil, offerIdentifier: String? = nil,
        environment: AppStoreEnvironment? = nil, storefront: String? = nil, storefrontId: String? = nil, transactionReason: TransactionReason? = nil,
        currency: String? = nil, price: Int64? = nil, offerDiscountType: OfferDiscountType? = nil, appTransactionId: String? = nil, offerPeriod: String? = nil,
        revocationType: RevocationType? = nil, revocationPercentage: Int32? = nil, advancedCommerceInfo: AdvancedCommerceTransactionInfo? = nil,
        billingPlanType: BillingPlanType? = nil, commitmentInfo: TransactionCommitmentInfo? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.bundleId = bundleId
        self.productId = productId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.quantity = quantity
        self.type = type
        self.appAccountToken = appAccountToken
        self.inAppOwnershipType = inAppOwnershipType
        self.signedDate = signedDate
        self.revocationReason = revocationReason
        self.revocationDate = revocationDate
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.environment = environment
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.transactionReason = transactionReason
        self.currency = currency
        self.price = price
        self.offerDiscountType = offerDiscountType
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.advancedCommerceInfo = advancedCommerceInfo
        self.billingPlanType = billingPlanType
        self.commitmentInfo = commitmentInfo
    }
}
