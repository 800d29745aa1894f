import AppStoreServer
import Foundation

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
