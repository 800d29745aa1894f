import AppStoreServer
import Foundation

/// A verified transaction as Storegate keeps it, with the signed data it came from.
public struct StoredTransaction: Sendable {
    public var appId: UUID
    public var environment: AppStoreEnvironment
    public var transactionId: String
    public var originalTransactionId: String
    public var appTransactionId: String?
    public var customer: UUID?
    public var productId: String
    public var productType: ProductType
    public var purchaseDate: Date?
    public var expiresDate: Date?
    public var revocationDate: Date?
    public var appAccountToken: UUID?
    public var signedDate: Date?
    public var signedTransaction: String
    /// The verified payload's JSON.
    public var payload: String
    /// What the customer paid, in milliunits of `currency`, as Apple's transaction says (for events; the
    /// payload keeps it).
    public var price: Int64?
    public var currency: String?
    /// The offer the purchase was made with, as Apple's transaction says (for events).
    public var offerType: OfferType?
    public var offerIdentifier: String?

    public init(
        appId: UUID, environment: AppStoreEnvironment, transactionId: String, originalTransactionId: String, appTransactionId: String?, customer: UUID?,
        productId: String, productType: ProductType, purchaseDate: Date?, expiresDate: Date?, revocationDate: Date?, appAccountToken: UUID?, signedDate: Date?,
        signedTransaction: String, payload: String, price: Int64? = nil, currency: String? = nil, offerType: OfferType? = nil, offerIdentifier: String? = nil
    ) {
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.appId = appId
        self.environment = environment
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.appTransactionId = appTransactionId
        self.customer = customer
        self.productId = productId
        self.productType = productType
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.appAccountToken = appAccountToken
        self.signedDate = signedDate
        self.signedTransaction = signedTransaction
        self.payload = payload
        self.price = price
        self.currency = currency
    }
}
/// What Storegate knows of a stored transaction, for decisions about it.
public struct TransactionFacts: Sendable, Equatable {
    public let productType: ProductType
    public let originalTransactionId: String
    public let environment: AppStoreEnvironment
    public let customer: UUID?

    public init(productType: ProductType, originalTransactionId: String, environment: AppStoreEnvironment, customer: UUID?) {
        self.productType = productType
        self.originalTransactionId = originalTransactionId
        self.environment = environment
        self.customer = customer
    }
}
