import AppStoreServer
import Foundation

/// A customer of a tenant's app, known by the tenant's own `customerId`, with a stable `appAccountToken`.
public struct Customer: Sendable, Equatable {
    public let id: UUID
    public let customerId: String
    public let appAccountToken: UUID
    public let createdAt: Date

    public init(id: UUID, customerId: String, appAccountToken: UUID, createdAt: Date) {
        self.id = id
        self.customerId = customerId
        self.appAccountToken = appAccountToken
        self.createdAt = createdAt
    }
}

/// An App Store identifier of an app linked to a customer.
public struct AccountLink: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case appTransactionId, originalTransactionId
    }

    public let appId: UUID
    public let kind: Kind
    public let value: String
    public let customer: UUID
    public let linkedAt: Date

    public init(appId: UUID, kind: Kind, value: String, customer: UUID, linkedAt: Date) {
        self.appId = appId
        self.kind = kind
        self.value = value
        self.customer = customer
        self.linkedAt = linkedAt
    }
}

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

/// A purchase that is not an auto-renewable subscription, for entitlements.
public struct OneTimePurchase: Sendable, Equatable {
    public let appId: UUID
    public let environment: AppStoreEnvironment
    public let transactionId: String
    public let originalTransactionId: String
    public let productId: String
    public let productType: ProductType
    public let purchaseDate: Date?
    public let expiresDate: Date?
    public let revocationDate: Date?
    public let quantity: Int

    public init(
        appId: UUID, environment: AppStoreEnvironment, transactionId: String, originalTransactionId: String, productId: String, productType: ProductType,
        purchaseDate: Date?, expiresDate: Date?, revocationDate: Date?, quantity: Int
    ) {
        self.appId = appId
        self.environment = environment
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.productType = productType
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.quantity = quantity
    }

    /// Neither revoked nor expired at `now`.
    public func grantsAccess(now: Date) -> Bool { revocationDate == nil && (expiresDate.map { $0 > now } ?? true) }
}

/// What a customer holds, read in one statement: the read every app launch makes.
public struct Holdings: Sendable {
    public let customer: UUID
    /// Stored with the customer or linked to them by `originalTransactionId`.
    public let subscriptions: [Subscription]
    /// Purchases of every other type, when asked for.
    public let purchases: [OneTimePurchase]
    /// Grants neither revoked nor expired when read, with the purchases.
    public let grants: [Grant]

    public init(customer: UUID, subscriptions: [Subscription], purchases: [OneTimePurchase], grants: [Grant] = []) {
        self.customer = customer
        self.subscriptions = subscriptions
        self.purchases = purchases
        self.grants = grants
    }
}
