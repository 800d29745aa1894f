import Foundation
import Logging
import PostgresNIO
import Storegate

/// The append-only audit log in the control schema. Details never hold secrets. The server's role may
/// only append: an UPDATE or DELETE fails unless its transaction set `storegate.audit_rewrite` (control
/// migration 14).
struct AuditRepository: Sendable {
    let conn: PostgresConnection
    let logger: Logger
    let tenantId: UUID?

    /// The columns an `AuditEntry` is read from, in the order `entry(_:)` reads them.
    static let columns = "id, at, actor, action, nullif(detail->>'customerId', ''), detail::text"

    /// Appends entries in one statement, in order.
    func append(_ entries: [NewAuditEntry]) async throws {
        guard !entries.isEmpty else { return }
        // Entries without a tenant (master-key rotation) travel as '' through the text array.
        try await conn.run(
            """
            INSERT INTO storegate.audit_log (actor, tenant_id, action, detail)
            SELECT a, nullif(t, '')::uuid, x, d::jsonb
            FROM unnest(\(entries.map(\.actor))::text[], \(entries.map { $0.tenantId?.uuidString ?? "" })::text[], \(entries.map(\.action))::text[],
                        \(entries.map(\.detail))::text[]) WITH ORDINALITY AS e(a, t, x, d, n)
            ORDER BY n
            """, logger: logger)
    }

    func entries() async throws -> [AuditEntry] {
        try await conn.all(
            "SELECT \(unescaped: Self.columns) FROM storegate.audit_log WHERE tenant_id = \(tenantId) ORDER BY id", logger: logger, Self.entry)
    }

    static func entry(_ row: PostgresRow) throws -> AuditEntry {
        let r = try row.decode((Int64, Date, String, String, String?, String).self)
        return AuditEntry(id: r.0, at: r.1, actor: r.2, action: r.3, customerId: r.4, detail: r.5)
    }
}

extension AuditRepository: AuditStore {
    /// Every value is bound; a condition whose value is absent is true. Sent unnamed, the statement is planned
    /// with its values, so the absent conditions fall away and the customer's condition can use its index
    /// (`audit_log_customer`, which covers only entries whose detail has a `customerId`).
    func page(_ filter: AuditFilter, before: Int64?, limit: Int) async throws -> [AuditEntry] {
        guard let tenantId else { return [] }
        let exact = filter.actionIsPrefix ? nil : filter.action
        let prefix = filter.actionIsPrefix ? filter.action : nil
        return try await conn.all(
            """
            SELECT \(unescaped: Self.columns) FROM storegate.audit_log
            WHERE tenant_id = \(tenantId)
              AND (\(before)::bigint IS NULL OR id < \(before))
              AND (\(filter.actor)::text IS NULL OR actor = \(filter.actor))
              AND (\(exact)::text IS NULL OR action = \(exact))
              AND (\(prefix)::text IS NULL OR starts_with(action, \(prefix)))
              AND (\(filter.customerId)::text IS NULL OR (detail ? 'customerId' AND detail->>'customerId' = \(filter.customerId)))
              AND (\(filter.from)::timestamptz IS NULL OR at >= \(filter.from))
              AND (\(filter.to)::timestamptz IS NULL OR at < \(filter.to))
            ORDER BY id DESC
            LIMIT \(limit)
            """, logger: logger, Self.entry)
    }
}

extension PostgresTenantUnit {
    var auditEntries: any AuditStore { AuditRepository(conn: conn, logger: logger, tenantId: tenant.id) }
}
