import AppStoreServer
import Foundation

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
