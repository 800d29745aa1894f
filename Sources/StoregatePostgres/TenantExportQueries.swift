import Foundation
import PostgresNIO

/// Every table of a tenant's schema as JSON, and its notifications waiting in the inbox, for `tenant export`.
struct TenantExportQueries: Sendable {
    let scope: TenantScope

    func tables() async throws -> [(name: String, rows: String)] {
        var out: [(String, String)] = []
        for table in try await tableNames() {
            let rows =
                try await scope.first(
                    "SELECT coalesce(jsonb_agg(to_jsonb(x)), '[]'::jsonb)::text FROM \(unescaped: scope.sql).\(unescaped: "\"\(table)\"") x", as: String.self)
                ?? "[]"
            out.append((table, rows))
        }
        // Notifications acknowledged to Apple and not yet taken into the schema's `notifications`.
        let inbox =
            try await scope.first(
                """
                SELECT coalesce(jsonb_agg(to_jsonb(x) - 'tenant_id' ORDER BY x.received_at), '[]'::jsonb)::text
                FROM storegate.notification_inbox x WHERE tenant_id = \(scope.tenantId)
                """, as: String.self) ?? "[]"
        out.append(("notification_inbox", inbox))
        return out
    }

    /// The schema's tables; names are checked before they are spliced into SQL.
    private func tableNames() async throws -> [String] {
        try await scope.column(
            """
            SELECT c.relname::text FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = \(scope.schema.name) AND c.relkind IN ('r', 'p') ORDER BY c.relname
            """, as: String.self
        ).filter { $0.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F } }
    }
}
