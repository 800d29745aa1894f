import AppStoreServer
import Foundation
import KeyVault

public protocol EventStore: Sendable {
    /// Appends events to the tenant's outbox, numbered after the last in one statement. The numbering
    /// row stays locked until the unit commits, so each tenant's events are numbered without gaps and in
    /// commit order: append last in a unit of work, to hold that lock briefly.
    /// Each event's deliveries are written with it, one per endpoint that `WebhookEndpoint.receives` it.
    func append(_ events: [NewEvent]) async throws
    /// The events after `sequence`, oldest first; of `types` only, when given; of one customer, when given.
    func list(after sequence: Int64, types: [Event.Kind], customer: UUID?, limit: Int) async throws -> [Event]
    /// One customer's events before `sequence` (from the newest when nil), newest first; of `types` only, when given.
    func list(customer: UUID, before sequence: Int64?, types: [Event.Kind], limit: Int) async throws -> [Event]
    /// The events with these sequence numbers, oldest first.
    func find(sequences: [Int64]) async throws -> [Event]
}
