import AppStoreServer
import Contract
import Foundation

/// A customer's app transaction, verified and stored, as `appTransactions.get` answers it.
@RPCObject public struct AppTransactionInfo: Sendable {
    public let bundleId: String
    public let environment: String
    public let appTransactionId: String
    public let originalPurchaseDate: Date?
    public let originalPlatform: String?
    /// Apple's receiptCreationDate.
    public let signedDate: Date?
    /// The customer the appTransactionId is linked to, if any.
    public let customerId: String?
    /// When a parent withdrew consent (RESCIND_CONSENT); the app may no longer serve this customer.
    public let consentRescindedAt: Date?
    /// Apple's JWS, as received.
    public let signedAppTransactionInfo: String

    init(_ stored: StoredAppTransaction, bundleId: String, customerId: String?) {
        self.bundleId = bundleId
        environment = stored.environment.rawValue
        appTransactionId = stored.appTransactionId
        originalPurchaseDate = stored.originalPurchaseDate
        originalPlatform = stored.originalPlatform
        signedDate = stored.signedDate
        self.customerId = customerId
        consentRescindedAt = stored.consentRescindedAt
        signedAppTransactionInfo = stored.signedAppTransaction
    }
}
