import Foundation
import Logging
import PostgresNIO
import Storegate

/// Tenants in the control schema; creating one creates its schema, deleting one drops it.
struct TenantRepository: TenantRegistry {
    let conn: PostgresConnection
    let logger: Logger
    let migrator: Migrator

    static let columns = columns("storegate.tenants")

    /// A tenant's columns, of the table or alias `table`, in the order `tenant(_:)` reads them.
    static func columns(_ table: String) -> String {
        (["id", "slug", "name", "schema_name", "status", "schema_version", "created_at", "sweep_minutes", "renewal_check_minutes"]
            .map { "\(table).\($0)" } + ["ARRAY[\(retentionColumns.map { "coalesce(\(table).\($0), 0)" }.joined(separator: ", "))]"])
            .joined(separator: ", ")
    }

    /// The data-retention windows' columns, in the order of `DataRetention.Kind`; read as one array, 0 for a default.
    static let retentionColumns = DataRetention.Kind.allCases.map(retentionColumn)

    static func retentionColumn(_ kind: DataRetention.Kind) -> String {
        switch kind {
        case .notificationPayloads: "retain_notification_payloads_minutes"
        case .events: "retain_events_minutes"
        case .webhookDeliveries: "retain_webhook_deliveries_minutes"
        case .auditEntries: "retain_audit_entries_minutes"
        case .consoleSessions: "retain_console_sessions_minutes"
        }
    }

    static func tenant(_ r: (UUID, String, String, String, String, Int, Date, Int?, Int?, [Int])) throws -> Tenant {
        let windows = zip(DataRetention.Kind.allCases, r.9).filter { $0.1 > 0 }
        return Tenant(
            id: r.0, slug: r.1, name: r.2, storageName: try TenantSchema(validating: r.3).name, status: Tenant.Status(rawValue: r.4) ?? .suspended,
            schemaVersion: r.5, createdAt: r.6, reconciliation: Tenant.Reconciliation(sweepMinutes: r.7, renewalCheckMinutes: r.8),
            dataRetention: DataRetention(Dictionary(windows, uniquingKeysWith: { first, _ in first })))
    }

    func create(slug: String, name: String) async throws -> Tenant {
        let schema = TenantSchema.generate()
        let id = UUID()
        try await migrator.createTenantSchema(schema, on: conn)
        try await conn.run(
            """
            INSERT INTO storegate.tenants (id, slug, name, schema_name, status, schema_version)
            VALUES (\(id), \(slug), \(name), \(schema.name), 'active', \(migrator.tenantChain.latestVersion))
            """, logger: logger)
        guard let tenant = try await find(id: id) else { throw DatabaseError.unreadable("the tenant just inserted was not found") }
        return tenant
    }

    /// With `forUpdate`, the slug is locked for the unit of work whether or not a tenant has it yet, so
    /// that two units cannot both create it.
    func find(slug: String, forUpdate: Bool) async throws -> Tenant? {
        if forUpdate { try await conn.run("SELECT pg_advisory_xact_lock(hashtextextended(\("tenant-slug:" + slug), 0))", logger: logger) }
        return try await many("SELECT \(unescaped: Self.columns) FROM storegate.tenants WHERE slug = \(slug) \(unescaped: forUpdate ? "FOR UPDATE" : "")").first
    }

    func find(id: UUID) async throws -> Tenant? {
        try await many("SELECT \(unescaped: Self.columns) FROM storegate.tenants WHERE id = \(id)").first
    }

    func list() async throws -> [Tenant] {
        try await many("SELECT \(unescaped: Self.columns) FROM storegate.tenants ORDER BY slug")
    }

    func rename(_ tenant: Tenant, to name: String) async throws {
        try await conn.run("UPDATE storegate.tenants SET name = \(name), updated_at = now() WHERE id = \(tenant.id)", logger: logger)
    }

    func setReconciliation(_ tenant: Tenant, _ reconciliation: Tenant.Reconciliation) async throws {
        try await conn.run(
            """
            UPDATE storegate.tenants SET sweep_minutes = \(reconciliation.sweepMinutes), renewal_check_minutes = \(reconciliation.renewalCheckMinutes),
                   updated_at = now()
            WHERE id = \(tenant.id)
            """, logger: logger)
    }

    func setDataRetention(_ tenant: Tenant, _ retention: DataRetention) async throws {
        let w = DataRetention.Kind.allCases.map { retention.set[$0] }
        try await conn.run(
            """
            UPDATE storegate.tenants SET retain_notification_payloads_minutes = \(w[0]), retain_events_minutes = \(w[1]),
                   retain_webhook_deliveries_minutes = \(w[2]), retain_audit_entries_minutes = \(w[3]), retain_console_sessions_minutes = \(w[4]),
                   updated_at = now()
            WHERE id = \(tenant.id)
            """, logger: logger)
    }

    func setStatus(_ tenant: Tenant, _ status: Tenant.Status) async throws {
        try await conn.run("UPDATE storegate.tenants SET status = \(status.rawValue), updated_at = now() WHERE id = \(tenant.id)", logger: logger)
    }

    /// Takes the schema's migration lock, so a concurrent migration never sees it half-dropped.
    func delete(_ tenant: Tenant) async throws -> [UUID] {
        let schema = try TenantSchema(validating: tenant.storageName)
        try await Migrator.lockTenant(schema, on: conn, logger: logger)
        let keys = try await conn.column("SELECT id FROM storegate.app_keys WHERE tenant_id = \(tenant.id)", as: UUID.self, logger: logger)
        try await conn.run("DROP SCHEMA IF EXISTS \(unescaped: schema.sql) CASCADE", logger: logger)
        try await conn.run("DELETE FROM storegate.tenants WHERE id = \(tenant.id)", logger: logger)
        return keys
    }

    /// Prepared once it repeats on a connection: the same text for every tenant (the job worker and the
    /// API key cache look tenants up by id all the time).
    private func many(_ query: TypedQuery) async throws -> [Tenant] {
        try await conn.prepared(query, logger: logger) { row in
            try Self.tenant(try row.decode((UUID, String, String, String, String, Int, Date, Int?, Int?, [Int]).self))
        }
    }
}
