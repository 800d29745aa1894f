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
    /// What Apple signed, as received (and verified then).
    public let signedPayload: String
    public let source: Source
    public let receivedAt: Date?
    /// When it was applied; nil while it waits.
    public let processedAt: Date?
    /// Why applying it changed nothing (its data failed verification, its app was removed); nil when applied.
    public let processingError: String?

    public init(
        notificationUUID: UUID, appId: UUID, environment: AppStoreEnvironment, notificationType: NotificationTypeV2, subtype: Subtype?, signedDate: Date?,
        signedPayload: String, source: Source, receivedAt: Date? = nil, processedAt: Date? = nil,
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
    /// (so not stored twice). nil when the stored text is not a compact JWS.
    public var payload: Data? { CompactJWS(signedPayload)?.decodedPayload }
}

/// A job in the durable queue: a pointer into a tenant's data, due at a time.
public struct Job: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Apply a stored notification (`ref` is its `notificationUUID`).
        case processNotification = "process_notification"
        /// Answer a `CONSUMPTION_REQUEST` (`ref` is the request's id).
        case sendConsumption = "send_consumption"
        /// Send an endpoint's due webhook deliveries (`ref` is the endpoint's id).
        case deliverWebhooks = "deliver_webhooks"
        /// Sweep Apple's notification history of an app in one environment for what never arrived, then
        /// again after the sweep interval (`ref` is `<app id>/<environment>`).
        case sweepNotifications = "sweep_notifications"
        /// Ask Apple for a subscription's status when its expiry passed with no renewal heard of (`ref` is
        /// `<app id>/<originalTransactionId>`).
        case checkRenewal = "check_renewal"
    }

    public let id: Int64
    public let tenantId: UUID
    public let kind: Kind
    public let ref: String
    public let attempts: Int

    public init(id: Int64, tenantId: UUID, kind: Kind, ref: String, attempts: Int) {
        self.id = id
        self.tenantId = tenantId
        self.kind = kind
        self.ref = ref
        self.attempts = attempts
    }
}
