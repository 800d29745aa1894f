import Foundation
import Logging
import PostgresNIO
import Storegate

/// Tenants in the control schema; creating one creates its schema, deleting one drops it.
struct TenantRepository: TenantRegistry {
    let conn: PostgresConnection
    let logger: Logger
    let migrator: Migrator

    static let columns = "id, slug, name, schema_name, status, schema_version, created_at"

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
        try await conn.hot(query, logger: logger) { row in
            let (id, slug, name, schema, status, version, created) = try row.decode((UUID, String, String, String, String, Int, Date).self);
            return
                Tenant(
                    id: id, slug: slug, name: name, storageName: try TenantSchema(validating: schema).name,
                    status: Tenant.Status(rawValue: status) ?? .suspended,
                    schemaVersion: version, createdAt: created)
        }
    }
}

/// Tenant API keys: a visible prefix and the SHA-256 of the whole key. Scoped to a tenant when `tenantId` is set.
struct APIKeyRepository: APIKeyLookup, APIKeyStore {
    let conn: PostgresConnection
    let logger: Logger
    let tenantId: UUID?

    static let columns = "k.id, k.tenant_id, k.prefix, k.label, k.created_at, k.last_used_at, k.revoked_at"

    func insert(id: UUID, prefix: String, secretHash: Data, label: String) async throws {
        try await conn.run(
            "INSERT INTO storegate.api_keys (id, tenant_id, prefix, secret_hash, label) VALUES (\(id), \(tenantId), \(prefix), \(secretHash), \(label))",
            logger: logger)
    }

    /// Prepared once it repeats on a connection: every API key cache miss runs it.
    func find(prefix: String) async throws -> (key: APIKey, secretHash: Data)? {
        try await conn.hot(
            "SELECT \(unescaped: Self.columns), k.secret_hash FROM storegate.api_keys k WHERE k.prefix = \(prefix)", logger: logger
        ) { row -> (key: APIKey, secretHash: Data) in
            let r = try row.decode((UUID, UUID, String, String, Date, Date?, Date?, Data).self)
            return (APIKey(id: r.0, tenantId: r.1, prefix: r.2, label: r.3, createdAt: r.4, lastUsedAt: r.5, revokedAt: r.6), r.7)
        }.first
    }

    func list() async throws -> [APIKey] {
        try await conn.all(
            "SELECT \(unescaped: Self.columns) FROM storegate.api_keys k WHERE k.tenant_id = \(tenantId) ORDER BY k.created_at, k.prefix", logger: logger
        ) { row in
            let r = try row.decode((UUID, UUID, String, String, Date, Date?, Date?).self)
            return APIKey(id: r.0, tenantId: r.1, prefix: r.2, label: r.3, createdAt: r.4, lastUsedAt: r.5, revokedAt: r.6)
        }
    }

    func revoke(prefix: String) async throws -> Bool {
        try await conn.first(
            "UPDATE storegate.api_keys SET revoked_at = now() WHERE tenant_id = \(tenantId) AND prefix = \(prefix) AND revoked_at IS NULL RETURNING id",
            as: UUID.self, logger: logger) != nil
    }

    func touch(id: UUID) async throws {
        try await conn.run("UPDATE storegate.api_keys SET last_used_at = now() WHERE id = \(id)", logger: logger)
    }
}
