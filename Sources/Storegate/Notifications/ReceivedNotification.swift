import AppStoreServer
import Contract
import Foundation

/// A notification Apple sent, as `notifications.list` answers it.
@RPCObject public struct ReceivedNotification: Sendable {
    @Field(.uuid) public let notificationUUID: String
    public let bundleId: String
    @Field(.appStoreEnvironment) public let environment: String
    public let notificationType: String
    public let subtype: String?
    public let signedDate: Date?
    public let receivedAt: Date?
    /// When it was applied; absent while it waits to be.
    public let processedAt: Date?
    /// Why applying it changed nothing, e.g. nested signed data that failed verification.
    public let processingError: String?

    init(_ n: StoredNotification, bundleId: String) {
        notificationUUID = n.notificationUUID.uuidString.lowercased()
        self.bundleId = bundleId
        environment = n.environment.rawValue
        notificationType = n.notificationType.rawValue
        subtype = n.subtype?.rawValue
        signedDate = n.signedDate
        receivedAt = n.receivedAt
        processedAt = n.processedAt
        processingError = n.processingError
    }
}
