import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// The tenant's outbox (tenant migration 11) and the webhook deliveries written with it (12).
struct EventRepository: EventStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    /// One statement: the numbering row moves by the count (and stays locked until commit); the events
    /// are inserted numbered after its old value, in the order given; each event is due at every
    /// endpoint of the tenant whose filter it passes (locked as a foreign key would: an endpoint being
    /// deleted waits, or is not seen), and each such endpoint's delivery job is due now; the lifecycle
    /// events' figures are added to the daily metrics (`MetricsRollup`). Then, when some of them may carry
    /// money, two statements more add them to the monthly cohorts (`CohortRollup`), after the numbering
    /// row is locked: appends to the cohorts are one at a time.
    /// Optional values travel as text arrays, an empty string for none.
    /// In a transactional unit of `Persistence.inTenant` the events wait for the unit's end, which writes
    /// them all by `write` (after the holdings step's own): the numbering row is then locked from the unit's
    /// last statements to its commit only, not while the unit still works.
    func append(_ events: [NewEvent]) async throws {
        guard !events.isEmpty else { return }
        if scope.changes.defersEvents { return scope.changes.keep(events) }
        try await write(events)
    }

    func write(_ events: [NewEvent]) async throws {
        guard !events.isEmpty else { return }
        let count = events.count
        try await scope.prepared(
            """
            WITH numbered AS (
                UPDATE \(unescaped: schema).event_sequence SET last = last + \(count) RETURNING last - \(count) AS base
            ), inserted AS (
                INSERT INTO \(unescaped: schema).events (sequence, id, type, app_id, environment, customer, notification_uuid, data)
                SELECT numbered.base + e.n, e.id, e.type, nullif(e.app_id, '')::uuid, nullif(e.environment, ''), nullif(e.customer, '')::uuid,
                       nullif(e.notification_uuid, '')::uuid, e.data::jsonb
                FROM numbered, unnest(\(events.map(\.id))::uuid[], \(events.map(\.type.rawValue))::text[], \(events.map { $0.appId?.uuidString ?? "" })::text[],
                                      \(events.map { $0.environment?.rawValue ?? "" })::text[], \(events.map { $0.customer?.uuidString ?? "" })::text[],
                                      \(events.map { $0.notificationUUID?.uuidString ?? "" })::text[], \(events.map(\.data))::text[])
                     WITH ORDINALITY AS e(id, type, app_id, environment, customer, notification_uuid, data, n)
                RETURNING sequence, type, app_id, environment, data
            ), rolled AS (
                \(unescaped: MetricsRollup.insert(into: schema, MetricsRollup.rows(from: "inserted")))
            ), due AS (
                INSERT INTO \(unescaped: schema).webhook_deliveries (endpoint_id, event_sequence)
                SELECT w.id, i.sequence FROM inserted i JOIN storegate.webhook_endpoints w ON w.tenant_id = \(scope.tenantId)
                    AND (cardinality(w.event_types) = 0 OR i.type = ANY(w.event_types))
                    AND (w.app_id IS NULL OR w.app_id = i.app_id) AND (w.environment IS NULL OR w.environment = i.environment)
                FOR KEY SHARE OF w
                RETURNING endpoint_id
            )
            INSERT INTO storegate.jobs (tenant_id, kind, ref, due_at)
            SELECT DISTINCT \(scope.tenantId), 'deliver_webhooks', endpoint_id::text, now() FROM due
            ON CONFLICT (tenant_id, kind, ref) DO UPDATE SET due_at = least(jobs.due_at, excluded.due_at)
            """)
        let priced = events.filter { LifecycleEvents.priced.contains($0.type) }.map(\.id)
        if !priced.isEmpty { try await MetricsRepository(scope: scope).recordCohorts(eventIds: priced) }
    }

    /// A customer's events are read by `events_customer` (tenant migration 15): sent unnamed, the statement
    /// is planned with its values, so the test of a NULL customer folds away.
    func list(after sequence: Int64, types: [Event.Kind], customer: UUID?, limit: Int) async throws -> [Event] {
        try await scope.all(
            """
            \(unescaped: Self.select(schema)) AND a.tenant_id = \(scope.tenantId)
            WHERE e.sequence > \(sequence) AND (cardinality(\(types.map(\.rawValue))::text[]) = 0 OR e.type = ANY(\(types.map(\.rawValue))::text[]))
              AND (\(customer)::uuid IS NULL OR e.customer = \(customer))
            ORDER BY e.sequence LIMIT \(limit)
            """, Self.event)
    }

    /// Read backwards along `events_customer`.
    func list(customer: UUID, before sequence: Int64?, types: [Event.Kind], limit: Int) async throws -> [Event] {
        try await scope.all(
            """
            \(unescaped: Self.select(schema)) AND a.tenant_id = \(scope.tenantId)
            WHERE e.customer = \(customer) AND e.sequence < \(sequence ?? Int64.max)
              AND (cardinality(\(types.map(\.rawValue))::text[]) = 0 OR e.type = ANY(\(types.map(\.rawValue))))
            ORDER BY e.sequence DESC LIMIT \(limit)
            """, Self.event)
    }

    func find(sequences: [Int64]) async throws -> [Event] {
        try await scope.all(
            "\(unescaped: Self.select(schema)) AND a.tenant_id = \(scope.tenantId) WHERE e.sequence = ANY(\(sequences)) ORDER BY e.sequence", Self.event)
    }

    /// Ends in the join with the apps, which the caller narrows to the tenant's (`AND a.tenant_id = …`):
    /// on Citus the control schema's rows are read on the coordinator, and only those.
    static func select(_ schema: String) -> String {
        """
        SELECT e.sequence, e.id, e.type, e.created_at, e.app_id, a.bundle_id, e.environment, e.customer, c.customer_id, e.data::text, n.signed_payload
        FROM \(schema).events e
        LEFT JOIN \(schema).customers c ON c.id = e.customer
        LEFT JOIN \(schema).notifications n ON n.notification_uuid = e.notification_uuid
        LEFT JOIN storegate.apps a ON a.id = e.app_id
        """
    }

    static func event(_ row: PostgresRow) throws -> Event {
        let r = try row.decode((Int64, UUID, String, Date, UUID?, String?, String?, UUID?, String?, String, String?).self)
        guard let type = Event.Kind(rawValue: r.2) else { throw DatabaseError.unreadable("event \(r.0) has an unknown type \(r.2)") }
        return Event(
            id: r.1, sequence: r.0, type: type, createdAt: r.3, appId: r.4, bundleId: r.5, environment: r.6.map(AppStoreEnvironment.init(rawValue:)),
            customer: r.7, customerId: r.8, data: r.9, signedPayload: r.10)
    }
}

extension PostgresTenantUnit {
    var events: any EventStore { EventRepository(scope: scope) }
}
