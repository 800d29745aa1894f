import Foundation

/// A tenant's events, read as a feed: in order and without gaps, from any point (`after` the last
/// sequence number a reader has), so a backend can pull instead of (or as well as) receiving webhooks.
public struct EventService: Sendable {
    let persistence: any Persistence

    public static let page = PageSize(standard: 100, maximum: 500)

    /// Events after one a reader has, and where to read on.
    public struct Page: Sendable {
        public let events: [Event]
        /// Pass as `after` to read on: the last sequence number returned, or `after` when none were.
        public let next: Int64
    }

    /// The events after `sequence` (from the first when nil), oldest first; of these types only when given;
    /// of one customer when given (their story: purchases, renewals, refunds, consumption requests and
    /// answers, grants, renewal extensions, links).
    public func list(tenant: Tenant, after sequence: Int64?, types: [Event.Kind]?, customerId: String? = nil, limit: Int?) async throws -> Page {
        let sequence = sequence ?? 0
        guard sequence >= 0 else { throw StoregateError.invalid(field: "after", reason: "must be 0 or a sequence number") }
        let limit = try Self.page.limit(limit)
        let customerId = try customerId.map { try Validate.customerId($0) }
        let events = try await persistence.inTenant(tenant, .read) { unit in
            var customer: UUID?
            if let customerId {
                guard let found = try await unit.customers.find(customerId: customerId) else { throw StoregateError.notFound(field: "customerId") }
                customer = found.id
            }
            return try await unit.events.list(after: sequence, types: types ?? [], customer: customer, limit: limit)
        }
        return Page(events: events, next: events.last?.sequence ?? sequence)
    }
}
