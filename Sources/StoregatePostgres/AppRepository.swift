import Foundation
import KeyVault
import Logging
import PostgresNIO

/// Apps, their App Store Connect keys and their notification webhooks, always scoped by tenant.
public struct AppRepository: Sendable {
    let logger: Logger
    public init(logger: Logger) { self.logger = logger }

    static let columns = "id, tenant_id, bundle_id, app_apple_id, environments, created_at"

    public func insert(_ app: AppRecord, on conn: PostgresConnection) async throws {
        try await conn.run(
            """
            INSERT INTO storegate.apps (id, tenant_id, bundle_id, app_apple_id, environments)
            VALUES (\(app.id), \(app.tenantId), \(app.bundleId), \(app.appAppleId), \(app.environments))
            """, logger: logger)
    }

    public func update(tenantId: UUID, id: UUID, appAppleId: Int64?, environments: [String], on conn: PostgresConnection) async throws {
        try await conn.run(
            "UPDATE storegate.apps SET app_apple_id = \(appAppleId), environments = \(environments) WHERE tenant_id = \(tenantId) AND id = \(id)",
            logger: logger)
    }

    public func find(tenantId: UUID, bundleId: String, on conn: PostgresConnection) async throws -> AppRecord? {
        try await many("SELECT \(unescaped: Self.columns) FROM storegate.apps WHERE tenant_id = \(tenantId) AND bundle_id = \(bundleId)", on: conn).first
    }

    public func find(tenantId: UUID, id: UUID, on conn: PostgresConnection) async throws -> AppRecord? {
        try await many("SELECT \(unescaped: Self.columns) FROM storegate.apps WHERE tenant_id = \(tenantId) AND id = \(id)", on: conn).first
    }

    public func list(tenantId: UUID, on conn: PostgresConnection) async throws -> [AppRecord] {
        try await many("SELECT \(unescaped: Self.columns) FROM storegate.apps WHERE tenant_id = \(tenantId) ORDER BY bundle_id", on: conn)
    }

    public func delete(tenantId: UUID, id: UUID, on conn: PostgresConnection) async throws {
        try await conn.run("DELETE FROM storegate.apps WHERE tenant_id = \(tenantId) AND id = \(id)", logger: logger)
    }

    private func many(_ query: PostgresQuery, on conn: PostgresConnection) async throws -> [AppRecord] {
        var out: [AppRecord] = []
        for try await row in try await conn.query(query, logger: logger).decode((UUID, UUID, String, Int64?, [String], Date).self) {
            out.append(AppRecord(id: row.0, tenantId: row.1, bundleId: row.2, appAppleId: row.3, environments: row.4, createdAt: row.5))
        }
        return out
    }

    // MARK: Keys

    static let keyColumns = "id, tenant_id, app_id, kind, key_id, issuer_id, public_key, created_at"

    public func insertKey(_ key: AppKeyRecord, sealed: SealedKey, on conn: PostgresConnection) async throws {
        try await conn.run(
            """
            INSERT INTO storegate.app_keys
                (id, tenant_id, app_id, kind, key_id, issuer_id, public_key, sealed_format, master_key_id, wrapped_data_key, ciphertext)
            VALUES (\(key.id), \(key.tenantId), \(key.appId), \(key.kind), \(key.keyId), \(key.issuerId), \(key.publicKey),
                    \(sealed.format), \(sealed.masterKeyId), \(sealed.wrappedDataKey), \(sealed.ciphertext))
            """, logger: logger)
    }

    public func keys(tenantId: UUID, appId: UUID? = nil, on conn: PostgresConnection) async throws -> [AppKeyRecord] {
        var out: [AppKeyRecord] = []
        let rows = try await conn.query(
            """
            SELECT \(unescaped: Self.keyColumns) FROM storegate.app_keys
            WHERE tenant_id = \(tenantId) AND (\(appId)::uuid IS NULL OR app_id = \(appId)) ORDER BY created_at, key_id
            """, logger: logger)
        for try await row in rows.decode((UUID, UUID, UUID, String, String, UUID, Data, Date).self) {
            out.append(AppKeyRecord(id: row.0, tenantId: row.1, appId: row.2, kind: row.3, keyId: row.4, issuerId: row.5, publicKey: row.6, createdAt: row.7))
        }
        return out
    }

    public func sealedKey(tenantId: UUID, keyRowId: UUID, on conn: PostgresConnection) async throws -> SealedKey? {
        let rows = try await conn.query(
            "SELECT sealed_format, master_key_id, wrapped_data_key, ciphertext FROM storegate.app_keys WHERE tenant_id = \(tenantId) AND id = \(keyRowId)",
            logger: logger)
        for try await row in rows.decode((Int, String, Data, Data).self) {
            return SealedKey(format: row.0, masterKeyId: row.1, wrappedDataKey: row.2, ciphertext: row.3)
        }
        return nil
    }

    public func deleteKey(tenantId: UUID, keyRowId: UUID, on conn: PostgresConnection) async throws {
        try await conn.run("DELETE FROM storegate.app_keys WHERE tenant_id = \(tenantId) AND id = \(keyRowId)", logger: logger)
    }

    /// Keys not sealed with `masterKeyId`, locked for re-wrapping (a batch at a time).
    public func keysToRewrap(excluding masterKeyId: String, limit: Int, on conn: PostgresConnection) async throws -> [(key: AppKeyRecord, sealed: SealedKey)] {
        var out: [(AppKeyRecord, SealedKey)] = []
        let rows = try await conn.query(
            """
            SELECT \(unescaped: Self.keyColumns), sealed_format, master_key_id, wrapped_data_key, ciphertext FROM storegate.app_keys
            WHERE master_key_id <> \(masterKeyId) ORDER BY id LIMIT \(limit) FOR UPDATE SKIP LOCKED
            """, logger: logger)
        for try await row in rows.decode((UUID, UUID, UUID, String, String, UUID, Data, Date, Int, String, Data, Data).self) {
            out.append(
                (
                    AppKeyRecord(id: row.0, tenantId: row.1, appId: row.2, kind: row.3, keyId: row.4, issuerId: row.5, publicKey: row.6, createdAt: row.7),
                    SealedKey(format: row.8, masterKeyId: row.9, wrappedDataKey: row.10, ciphertext: row.11)
                ))
        }
        return out
    }

    public func updateSealed(keyRowId: UUID, _ sealed: SealedKey, on conn: PostgresConnection) async throws {
        try await conn.run(
            """
            UPDATE storegate.app_keys SET master_key_id = \(sealed.masterKeyId), wrapped_data_key = \(sealed.wrappedDataKey), rewrapped_at = now()
            WHERE id = \(keyRowId)
            """, logger: logger)
    }

    // MARK: Webhooks

    public func insertWebhook(_ webhook: WebhookRecord, on conn: PostgresConnection) async throws {
        try await conn.run(
            """
            INSERT INTO storegate.webhooks (token, tenant_id, app_id, environment)
            VALUES (\(webhook.token), \(webhook.tenantId), \(webhook.appId), \(webhook.environment)) ON CONFLICT (app_id, environment) DO NOTHING
            """, logger: logger)
    }

    public func webhooks(tenantId: UUID, appId: UUID, on conn: PostgresConnection) async throws -> [WebhookRecord] {
        var out: [WebhookRecord] = []
        let rows = try await conn.query(
            "SELECT token, tenant_id, app_id, environment FROM storegate.webhooks WHERE tenant_id = \(tenantId) AND app_id = \(appId) ORDER BY environment",
            logger: logger)
        for try await row in rows.decode((String, UUID, UUID, String).self) {
            out.append(WebhookRecord(token: row.0, tenantId: row.1, appId: row.2, environment: row.3))
        }
        return out
    }
}

extension AppRepository {
    /// The app with this bundle ID in this tenant and its newest key (or the key with `keyId`), in one query.
    public func signingKey(tenantId: UUID, bundleId: String, keyId: String?, on conn: PostgresConnection) async throws -> (app: AppRecord, key: AppKeyRecord?)? {
        let rows = try await conn.query(
            """
            SELECT a.id, a.tenant_id, a.bundle_id, a.app_apple_id, a.environments, a.created_at,
                   k.id, k.kind, k.key_id, k.issuer_id, k.public_key, k.created_at
            FROM storegate.apps a
            LEFT JOIN storegate.app_keys k ON k.app_id = a.id AND k.tenant_id = a.tenant_id AND (\(keyId)::text IS NULL OR k.key_id = \(keyId))
            WHERE a.tenant_id = \(tenantId) AND a.bundle_id = \(bundleId)
            ORDER BY k.created_at DESC NULLS LAST LIMIT 1
            """, logger: logger)
        for try await row in rows.decode((UUID, UUID, String, Int64?, [String], Date, UUID?, String?, String?, UUID?, Data?, Date?).self) {
            let app = AppRecord(id: row.0, tenantId: row.1, bundleId: row.2, appAppleId: row.3, environments: row.4, createdAt: row.5)
            guard let keyRowId = row.6, let kind = row.7, let keyId = row.8, let issuerId = row.9, let publicKey = row.10, let created = row.11 else {
                return (app, nil)
            }
            return (app, AppKeyRecord(id: keyRowId, tenantId: row.1, appId: row.0, kind: kind, keyId: keyId, issuerId: issuerId, publicKey: publicKey, createdAt: created))
        }
        return nil
    }
}
