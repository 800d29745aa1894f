import AppStoreServer
import Contract
import Foundation

/// An external purchase token Apple announced (`EXTERNAL_PURCHASE_TOKEN`), as `externalPurchaseTokens.list` answers it.
@RPCObject public struct ExternalPurchaseTokenItem: Sendable {
    public let bundleId: String
    public let environment: String
    public let externalPurchaseId: String
    public let tokenCreationDate: Date?
    /// The latest notification's subtype: UNREPORTED (Apple has no report of this token yet), CREATED (a
    /// custom link token was made) or ACTIVE_TOKEN_REMINDER (a custom link token is still active).
    public let subtype: String?
    /// A custom link token's type (SERVICES, ACQUISITION); absent for other tokens.
    public let tokenType: String?
    /// When a custom link token expires.
    public let tokenExpirationDate: Date?
    @Field(.uuid) public let notificationUUID: String
    public let receivedAt: Date?

    init(_ token: ExternalPurchaseTokenRecord, bundleId: String) {
        self.bundleId = bundleId
        environment = token.environment.rawValue
        externalPurchaseId = token.externalPurchaseId
        tokenCreationDate = token.tokenCreationDate
        subtype = token.subtype?.rawValue
        tokenType = token.tokenType
        tokenExpirationDate = token.tokenExpirationDate
        notificationUUID = token.notificationUUID.uuidString.lowercased()
        receivedAt = token.receivedAt
    }
}
