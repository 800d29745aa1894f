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

/// An external purchase token Apple told the app about (`EXTERNAL_PURCHASE_TOKEN`): with subtype
/// `UNREPORTED`, one the developer has not yet reported to Apple's External Purchase Server API.
public struct ExternalPurchaseTokenRecord: Sendable, Equatable {
    public let appId: UUID
    /// Sandbox when the token's ID starts with `SANDBOX`, as Apple's libraries read it.
    public let environment: AppStoreEnvironment
    public let externalPurchaseId: String
    public let tokenCreationDate: Date?
    /// The latest notification's: UNREPORTED, CREATED or ACTIVE_TOKEN_REMINDER.
    public let subtype: Subtype?
    /// A custom link token's type; its expiry.
    public let tokenType: String?
    public let tokenExpirationDate: Date?
    public let notificationUUID: UUID
    public let receivedAt: Date?

    public init(
        appId: UUID, environment: AppStoreEnvironment, externalPurchaseId: String, tokenCreationDate: Date?, subtype: Subtype?, notificationUUID: UUID,
        tokenType: String? = nil, tokenExpirationDate: Date? = nil, receivedAt: Date? = nil
    ) {
        self.tokenType = tokenType
        self.tokenExpirationDate = tokenExpirationDate
        self.appId = appId
        self.environment = environment
        self.externalPurchaseId = externalPurchaseId
        self.tokenCreationDate = tokenCreationDate
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.receivedAt = receivedAt
    }
}

/// Apple's summary of a finished mass renewal-date extension (`RENEWAL_EXTENSION` / `SUMMARY`).
public struct MassExtensionSummary: Sendable, Equatable {
    public let requestIdentifier: String
    public let appId: UUID
    public let environment: AppStoreEnvironment
    public let productId: String?
    public let storefrontCountryCodes: [String]?
    public let succeededCount: Int64
    public let failedCount: Int64
    /// The notification's `signedDate`.
    public let completedAt: Date

    public init(
        requestIdentifier: String, appId: UUID, environment: AppStoreEnvironment, productId: String?, storefrontCountryCodes: [String]?, succeededCount: Int64,
        failedCount: Int64, completedAt: Date
    ) {
        self.requestIdentifier = requestIdentifier
        self.appId = appId
        self.environment = environment
        self.productId = productId
        self.storefrontCountryCodes = storefrontCountryCodes
        self.succeededCount = succeededCount
        self.failedCount = failedCount
        self.completedAt = completedAt
    }
}
