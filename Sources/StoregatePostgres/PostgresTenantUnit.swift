import Foundation
import Logging
import PostgresNIO
import Storegate

/// A unit of work inside one tenant: control rows filtered by the tenant's id, and the tenant's schema.
/// Each repository's file says how a unit reaches it (`extension PostgresTenantUnit { var … }`).
struct PostgresTenantUnit: TenantUnit {
    let tenant: Tenant
    /// The connection, the tenant's id and schema, and whose holdings the unit changed: what every
    /// repository of the unit holds.
    let scope: TenantScope

    init(tenant: Tenant, schema: TenantSchema, conn: PostgresConnection, logger: Logger, changes: UnitChanges) {
        self.tenant = tenant
        self.scope = TenantScope(conn: conn, logger: logger, tenantId: tenant.id, schema: schema, changes: changes)
    }

    var conn: PostgresConnection { scope.conn }
    var logger: Logger { scope.logger }

    /// In a transactional unit the job is written at its end with the others (`UnitChanges.keep`).
    func enqueue(_ kind: Job.Kind, ref: String, due: Date) async throws {
        if scope.changes.defersEvents { return scope.changes.keep(kind, ref: ref, due: due) }
        try await JobRepository(conn: conn, logger: logger, tenantId: tenant.id).enqueue([(kind, ref, due)])
    }

    func completeJobs(_ kind: Job.Kind, refs: [String]) async throws {
        try await JobRepository(conn: conn, logger: logger, tenantId: tenant.id).complete(kind, refs: refs)
    }

    func audit(_ actor: Actor, _ action: String, _ detail: [String: String]) async throws {
        try await AuditRepository(conn: conn, logger: logger, tenantId: tenant.id).append([
            try NewAuditEntry(actor: actor, tenantId: tenant.id, action: action, detail: detail)
        ])
    }

    func auditLog() async throws -> [AuditEntry] {
        try await AuditRepository(conn: conn, logger: logger, tenantId: tenant.id).entries()
    }

    func exportTables() async throws -> [(name: String, rows: String)] {
        try await TenantExportQueries(scope: scope).tables()
    }

    /// How many statements are prepared on this unit's connection: for tests.
    var preparedCount: Int { PreparedStatements.shared.preparedCount(on: conn) }
}
