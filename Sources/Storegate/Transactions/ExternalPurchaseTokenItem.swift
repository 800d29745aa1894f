import AppStoreServer
import Foundation
import JSONRPC

/// An external purchase token Apple announced (`EXTERNAL_PURCHASE_TOKEN`), as `externalPurchaseTokens.list` answers it.
@RPCObject public struct ExternalPurchaseTokenItem: Sendable {
    public let bundleId: String
    public let environment: String
    public let externalPurchaseId: String
    public let tokenCreationDate: Date?
    /// UNREPORTED: Apple has no report of this token yet.
    public let subtype: String?
    @Field(.uuid) public let notificationUUID: String
    public let receivedAt: Date?

    init(_ token: ExternalPurchaseTokenRecord, bundleId: String) {
        self.bundleId = bundleId
        environment = token.environment.rawValue
        externalPurchaseId = token.externalPurchaseId
        tokenCreationDate = token.tokenCreationDate
        subtype = token.subtype?.rawValue
        notificationUUID = token.notificationUUID.uuidString.lowercased()
        receivedAt = token.receivedAt
    }
}
