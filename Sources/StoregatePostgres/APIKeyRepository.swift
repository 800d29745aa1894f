import Foundation
import Logging
import PostgresNIO

/// Tenant API keys: a visible prefix and the SHA-256 of the whole key.
public struct APIKeyRepository: Sendable {
    let logger: Logger
    public init(logger: Logger) { self.logger = logger }

    static let columns = "k.id, k.tenant_id, k.prefix, k.label, k.created_at, k.last_used_at, k.revoked_at"

    public func insert(id: UUID, tenantId: UUID, prefix: String, secretHash: Data, label: String, on conn: PostgresConnection) async throws {
        try await conn.run(
            "INSERT INTO storegate.api_keys (id, tenant_id, prefix, secret_hash, label) VALUES (\(id), \(tenantId), \(prefix), \(secretHash), \(label))",
            logger: logger)
    }

    /// The key with this prefix and hash, with its tenant; nil when unknown. Revoked keys are returned
    /// so the caller can tell them apart.
    public func find(prefix: String, on conn: PostgresConnection) async throws -> (key: APIKeyRecord, secretHash: Data)? {
        let rows = try await conn.query(
            "SELECT \(unescaped: Self.columns), k.secret_hash FROM storegate.api_keys k WHERE k.prefix = \(prefix)", logger: logger)
        for try await row in rows.decode((UUID, UUID, String, String, Date, Date?, Date?, Data).self) {
            return (APIKeyRecord(id: row.0, tenantId: row.1, prefix: row.2, label: row.3, createdAt: row.4, lastUsedAt: row.5, revokedAt: row.6), row.7)
        }
        return nil
    }

    public func list(tenantId: UUID, on conn: PostgresConnection) async throws -> [APIKeyRecord] {
        var out: [APIKeyRecord] = []
        let rows = try await conn.query(
            "SELECT \(unescaped: Self.columns) FROM storegate.api_keys k WHERE k.tenant_id = \(tenantId) ORDER BY k.created_at, k.prefix", logger: logger)
        for try await row in rows.decode((UUID, UUID, String, String, Date, Date?, Date?).self) {
            out.append(APIKeyRecord(id: row.0, tenantId: row.1, prefix: row.2, label: row.3, createdAt: row.4, lastUsedAt: row.5, revokedAt: row.6))
        }
        return out
    }

    /// Revokes the tenant's key with this prefix; false when it has none (or it was already revoked).
    public func revoke(tenantId: UUID, prefix: String, on conn: PostgresConnection) async throws -> Bool {
        let id = try await conn.first(
            "UPDATE storegate.api_keys SET revoked_at = now() WHERE tenant_id = \(tenantId) AND prefix = \(prefix) AND revoked_at IS NULL RETURNING id",
            as: UUID.self, logger: logger)
        return id != nil
    }

    public func touch(id: UUID, on conn: PostgresConnection) async throws {
        try await conn.run("UPDATE storegate.api_keys SET last_used_at = now() WHERE id = \(id)", logger: logger)
    }
}
