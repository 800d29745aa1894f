import Foundation
import Logging
import PostgresNIO
import Storegate

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

    /// With its tenant, in one statement: every API key cache miss runs it (a tenant's first request
    /// after the server started), prepared once it repeats on a connection.
    func resolve(prefix: String) async throws -> (key: APIKey, secretHash: Data, tenant: Tenant)? {
        try await conn.prepared(
            """
            SELECT \(unescaped: Self.columns), k.secret_hash, \(unescaped: TenantRepository.columns("t")) FROM storegate.api_keys k
            JOIN storegate.tenants t ON t.id = k.tenant_id WHERE k.prefix = \(prefix)
            """, logger: logger
        ) { row -> (key: APIKey, secretHash: Data, tenant: Tenant) in
            let r = try row.decode(
                (UUID, UUID, String, String, Date, Date?, Date?, Data, UUID, String, String, String, String, Int, Date, Int?, Int?, [Int]).self)
            let key = APIKey(id: r.0, tenantId: r.1, prefix: r.2, label: r.3, createdAt: r.4, lastUsedAt: r.5, revokedAt: r.6)
            return (key, r.7, try TenantRepository.tenant((r.8, r.9, r.10, r.11, r.12, r.13, r.14, r.15, r.16, r.17)))
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

    /// Committed asynchronously (`synchronous_commit` off for its own transaction only): it returns before
    /// its WAL reaches the disk or a synchronous standby, and its commit is not confirmed
    /// (`CommitConfirmation`). Losing the marks in a crash costs nothing they promise.
    func touch(ids: [UUID]) async throws {
        try await conn.run(
            """
            WITH touched AS (UPDATE storegate.api_keys SET last_used_at = now() WHERE id = ANY(\(ids)) RETURNING id)
            SELECT set_config('synchronous_commit', 'off', true) FROM touched LIMIT 1
            """, logger: logger, confirmingCommit: false)
    }
}

extension PostgresTenantUnit {
    var apiKeys: any APIKeyStore { APIKeyRepository(conn: conn, logger: logger, tenantId: tenant.id) }
}
