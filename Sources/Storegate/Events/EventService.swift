import Foundation

/// A tenant's events, read as a feed: in order and without gaps, from any point (`after` the last
/// sequence number a reader has), so a backend can pull instead of (or as well as) receiving webhooks.
public struct EventService: Sendable {
    let persistence: any Persistence

    public static let limits = 1...500

    public func list(tenant: Tenant, after sequence: Int64, types: [Event.Kind], limit: Int) async throws -> [Event] {
        guard sequence >= 0 else { throw StoregateError.invalid(field: "after", reason: "must be 0 or a sequence number") }
        guard Self.limits.contains(limit) else { throw StoregateError.invalid(field: "limit", reason: "must be 1 to 500") }
        return try await persistence.inTenant(tenant, .read) { try await $0.events.list(after: sequence, types: types, limit: limit) }
    }
}
