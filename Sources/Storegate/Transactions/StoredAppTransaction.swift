import AppStoreServer
import Foundation

/// A customer's app transaction (their download of the app), as Apple signed it and Storegate verified it.
public struct StoredAppTransaction: Sendable, Equatable {
    public let appId: UUID
    public let environment: AppStoreEnvironment
    public let appTransactionId: String
    public let originalPurchaseDate: Date?
    public let originalPlatform: String?
    /// Apple's `receiptCreationDate`: when it signed this app transaction.
    public let signedDate: Date?
    public let signedAppTransaction: String
    /// The verified payload's JSON.
    public let payload: String
    /// When a parent withdrew consent for this customer to use the app (`RESCIND_CONSENT`); nil while it stands.
    public let consentRescindedAt: Date?
    /// The customer the `appTransactionId` is linked to, when read back.
    public let customer: UUID?

    public init(
        appId: UUID, environment: AppStoreEnvironment, appTransactionId: String, originalPurchaseDate: Date?, originalPlatform: String?, signedDate: Date?,
        signedAppTransaction: String, payload: String, consentRescindedAt: Date? = nil, customer: UUID? = nil
    ) {
        self.appId = appId
        self.environment = environment
        self.appTransactionId = appTransactionId
        self.originalPurchaseDate = originalPurchaseDate
        self.originalPlatform = originalPlatform
        self.signedDate = signedDate
        self.signedAppTransaction = signedAppTransaction
        self.payload = payload
        self.consentRescindedAt = consentRescindedAt
        self.customer = customer
    }

    /// Verified app transaction data, ready to store.
    init(_ verified: VerifiedPayload, signed: String, app: App, environment: AppStoreEnvironment, field: String, consentRescindedAt: Date? = nil) throws {
        let decoded = try verified.decode(AppTransaction.self)
        guard let id = decoded.appTransactionId else { throw StoregateError.invalid(field: field, reason: "has no appTransactionId") }
        self.init(
            appId: app.id, environment: decoded.receiptType ?? environment, appTransactionId: id, originalPurchaseDate: decoded.originalPurchaseDate?.date,
            originalPlatform: decoded.originalPlatform?.rawValue, signedDate: decoded.receiptCreationDate?.date, signedAppTransaction: signed,
            payload: String(decoding: verified.payload, as: UTF8.self), consentRescindedAt: consentRescindedAt)
    }
}
