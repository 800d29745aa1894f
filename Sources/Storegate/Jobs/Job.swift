import Foundation

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
        /// Delete what is older than the tenant's data-retention windows, then again after a while (`ref` is `all`).
        case dataRetention = "data_retention"
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
