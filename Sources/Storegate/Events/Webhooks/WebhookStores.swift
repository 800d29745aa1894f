import AppStoreServer
import Foundation
import KeyVault

/// The tenant's webhook endpoints and their sealed signing secrets.
public protocol WebhookEndpointStore: Sendable {
    func insert(_ endpoint: WebhookEndpoint, secret: SealedWebhookSecret) async throws
    /// Replaces the endpoint's URL, description and filters; false when it does not exist.
    func update(_ endpoint: WebhookEndpoint) async throws -> Bool
    /// False when it does not exist.
    func delete(id: UUID) async throws -> Bool
    func find(id: UUID) async throws -> WebhookEndpoint?
    func list() async throws -> [WebhookEndpoint]
    /// The secrets that sign now: the current one, and a rotated one until it expires; newest first.
    func secrets(endpointId: UUID) async throws -> [SealedWebhookSecret]
    /// Makes `secret` the current one; the one it replaces keeps signing until `previousUntil`, and
    /// any older one is removed.
    func rotate(endpointId: UUID, to secret: SealedWebhookSecret, previousUntil: Date) async throws
}
/// Events due at endpoints (written with the events: `EventStore.append`) and the attempts to send them.
public protocol WebhookDeliveryStore: Sendable {
    /// Leases up to `limit` due deliveries of the endpoint, fewer when others are being sent (at most
    /// `limit` are in flight per endpoint across all workers), oldest event first. In a `.write` unit.
    func claim(endpointId: UUID, limit: Int, lease: Duration) async throws -> [DueDelivery]
    /// Records attempts to one endpoint and what follows each: delivered, tried again at `next`, or
    /// dead-lettered (the endpoint then marked failing; a success marks it healthy again). One statement.
    func record(_ results: [DeliveryResult], endpointId: UUID) async throws
    /// Moves the endpoint's delivery job to when its next delivery is due, or removes it when none is,
    /// unless the job was made due again while it ran (events were appended): then it runs again now.
    func settle(_ job: Job, endpointId: UUID) async throws
    /// Deliveries newest first, with their attempts; of one endpoint and/or one status when given;
    /// before a delivery (a cursor), when given.
    func list(endpointId: UUID?, status: WebhookDelivery.Status?, before: UUID?, limit: Int) async throws -> [WebhookDelivery]
    /// Makes one delivery due now (whatever its status), with a fresh retry window; false when unknown.
    func redeliver(id: UUID) async throws -> (endpointId: UUID, found: Bool)
    /// Makes the dead-lettered deliveries of events since `since` due now; of one endpoint when given.
    /// Returns the endpoints touched and how many deliveries.
    func redeliverFailed(endpointId: UUID?, since: Date) async throws -> (endpointIds: [UUID], count: Int)
}
