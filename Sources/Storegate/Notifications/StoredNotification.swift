import AppStoreServer
import Foundation

/// An App Store Server Notification as received and verified, before it is applied.
public struct StoredNotification: Sendable, Equatable {
    /// How the notification reached Storegate.
    public enum Source: String, Sendable {
        /// Apple posted it to the app's notification URL.
        case webhook
        /// Recovered from Apple's notification history.
        case backfill
    }

    public let notificationUUID: UUID
    public let appId: UUID
    public let environment: AppStoreEnvironment
    public let notificationType: NotificationTypeV2
    public let subtype: Subtype?
    public let signedDate: Date?
    /// What Apple signed, as received (and verified then); nil once data retention (or erasure) dropped it
    /// from a processed notification, whose row stays as the duplicate check.
    public let signedPayload: String?
    public let source: Source
    public let receivedAt: Date?
    /// When it was applied; nil while it waits.
    public let processedAt: Date?
    /// Why applying it changed nothing (its data failed verification, its app was removed); nil when applied.
    public let processingError: String?

    public init(
        notificationUUID: UUID, appId: UUID, environment: AppStoreEnvironment, notificationType: NotificationTypeV2, subtype: Subtype?, signedDate: Date?,
        signedPayload: String?, source: Source, receivedAt: Date? = nil, processedAt: Date? = nil,
        processingError: String? = nil
    ) {
        self.notificationUUID = notificationUUID
        self.appId = appId
        self.environment = environment
        self.notificationType = notificationType
        self.subtype = subtype
        self.signedDate = signedDate
        self.signedPayload = signedPayload
        self.source = source
        self.receivedAt = receivedAt
        self.processedAt = processedAt
        self.processingError = processingError
    }
}

extension StoredNotification {
    /// The JSON Apple signed: the middle part of `signedPayload`, verified when the notification was received
    /// (so not stored twice). nil when the stored text is not a compact JWS, or was dropped.
    public var payload: Data? { signedPayload.flatMap { CompactJWS($0)?.decodedPayload } }
}
