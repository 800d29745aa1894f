import Foundation

/// A customer's events as support reads them: a page at a time, newest first, from the latest or from
/// either side of a page already shown.
extension EventService {
    /// One page of a customer's timeline, newest first, with where the pages beside it start.
    public struct Timeline: Sendable {
        public let events: [Event]
        /// Pass as `before` for the page of earlier events; nil when there are none.
        public let earlier: Int64?
        /// Pass as `after` for the page of later events; nil when this page ends at the newest.
        public let later: Int64?
    }

    /// Where a page of a timeline starts.
    public enum TimelinePosition: Sendable, Equatable {
        /// The newest events.
        case latest
        /// The events just before this sequence number.
        case before(Int64)
        /// The events just after this sequence number.
        case after(Int64)
    }

    /// What a timeline shows: every event but the raw layer (`purchase.created`, `subscription.updated`),
    /// which the lifecycle events say in the tenant's words.
    public static let timelineTypes = Event.Kind.allCases.filter { $0 != .purchaseCreated && $0 != .subscriptionUpdated }

    /// `limit` of the customer's events at `position`, newest first; one more is read to know whether the
    /// timeline goes on.
    public func timeline(tenant: Tenant, customerId: String, at position: TimelinePosition, limit: Int) async throws -> Timeline {
        let customerId = try Validate.customerId(customerId)
        guard limit > 0 else { throw StoregateError.invalid(field: "limit", reason: "must be at least 1") }
        return try await persistence.inTenant(tenant, .read) { unit in
            guard let customer = try await unit.customers.find(customerId: customerId) else { throw StoregateError.notFound(field: "customerId") }
            switch position {
            case .latest, .before:
                let before: Int64? = if case .before(let sequence) = position { sequence } else { nil }
                let read = try await unit.events.list(customer: customer.id, before: before, types: Self.timelineTypes, limit: limit + 1)
                let events = Array(read.prefix(limit))
                // A page before a sequence number has, at least, the event at that number after it.
                let later = before.map { events.first?.sequence ?? $0 - 1 }
                return Timeline(events: events, earlier: read.count > limit ? events.last?.sequence : nil, later: later)
            case .after(let after):
                let read = try await unit.events.list(after: max(after, 0), types: Self.timelineTypes, customer: customer.id, limit: limit + 1)
                let events = Array(read.prefix(limit).reversed())
                let earlier = after > 0 ? events.last?.sequence ?? after + 1 : nil
                return Timeline(events: events, earlier: earlier, later: read.count > limit ? events.first?.sequence : nil)
            }
        }
    }
}
