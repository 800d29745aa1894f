import Foundation
import Logging
import PostgresNIO
import Storegate

/// The append-only audit log in the control schema. Details never hold secrets.
struct AuditRepository: Sendable {
    let conn: PostgresConnection
    let logger: Logger
    let tenantId: UUID?

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
            "SELECT at, actor, action, detail::text FROM storegate.audit_log WHERE tenant_id = \(tenantId) ORDER BY id",
            logger: logger
        ) { row in
            let r = try row.decode((Date, String, String, String).self)
            return AuditEntry(at: r.0, actor: r.1, action: r.2, detail: r.3)
        }
    }
}
