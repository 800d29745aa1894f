import AppStoreServer
import Foundation
import KeyVault
import Logging
import PostgresNIO
import Storegate

/// A tenant's apps, their App Store Connect keys and their notification webhooks: control rows, every
/// statement filtered by the tenant's id.
struct AppRepository: AppRegistry {
    let scope: TenantScope
    var tenantId: UUID { scope.tenantId }

    static let columns = "id, tenant_id, bundle_id, app_apple_id, environments, created_at"
    typealias AppColumns = (UUID, UUID, String, Int64?, [String], Date)

    static func app(_ r: AppColumns) -> App {
        App(id: r.0, tenantId: r.1, bundleId: r.2, appAppleId: r.3, environments: r.4.map(AppStoreEnvironment.init(rawValue:)), createdAt: r.5)
    }

    func insert(_ app: App) async throws {
        try await scope.run(
            """
            INSERT INTO storegate.apps (id, tenant_id, bundle_id, app_apple_id, environments)
            VALUES (\(app.id), \(tenantId), \(app.bundleId), \(app.appAppleId), \(app.environments.map(\.rawValue)))
            """)
    }

    func update(_ app: App) async throws {
        try await scope.run(
            """
            UPDATE storegate.apps SET app_apple_id = \(app.appAppleId), environments = \(app.environments.map(\.rawValue))
            WHERE tenant_id = \(tenantId) AND id = \(app.id)
            """)
    }

    func delete(_ app: App) async throws {
        try await scope.run("DELETE FROM storegate.apps WHERE tenant_id = \(tenantId) AND id = \(app.id)")
    }

    func find(bundleId: String) async throws -> App? {
        try await apps("SELECT \(unescaped: Self.columns) FROM storegate.apps WHERE tenant_id = \(tenantId) AND bundle_id = \(bundleId)").first
    }

    func find(id: UUID) async throws -> App? {
        try await apps("SELECT \(unescaped: Self.columns) FROM storegate.apps WHERE tenant_id = \(tenantId) AND id = \(id)").first
    }

    func list() async throws -> [App] {
        try await apps("SELECT \(unescaped: Self.columns) FROM storegate.apps WHERE tenant_id = \(tenantId) ORDER BY bundle_id")
    }

    private func apps(_ query: PostgresQuery) async throws -> [App] {
        try await scope.all(query) { try Self.app($0.decode(AppColumns.self)) }
    }

    // MARK: Keys

    static let keyColumns = "id, tenant_id, app_id, kind, key_id, issuer_id, public_key, created_at"
    typealias KeyColumns = (UUID, UUID, UUID, String, String, UUID, Data, Date)

    static func key(_ r: KeyColumns) throws -> AppKey {
        guard let kind = AppKey.Kind(rawValue: r.3) else { throw DatabaseError.unreadable("app key \(r.4) has an unknown kind \(r.3)") }
        return AppKey(id: r.0, tenantId: r.1, appId: r.2, kind: kind, keyId: r.4, issuerId: r.5, publicKey: r.6, createdAt: r.7)
    }

    func signingKey(bundleId: String, keyId: String?) async throws -> (app: App, key: AppKey?)? {
        try await scope.all(
            """
            SELECT a.id, a.tenant_id, a.bundle_id, a.app_apple_id, a.environments, a.created_at,
                   k.id, k.kind, k.key_id, k.issuer_id, k.public_key, k.created_at
            FROM storegate.apps a
            LEFT JOIN storegate.app_keys k ON k.app_id = a.id AND k.tenant_id = a.tenant_id AND (\(keyId)::text IS NULL OR k.key_id = \(keyId))
            WHERE a.tenant_id = \(tenantId) AND a.bundle_id = \(bundleId)
            ORDER BY k.created_at DESC NULLS LAST LIMIT 1
            """
        ) { row -> (app: App, key: AppKey?) in
            let r = try row.decode((UUID, UUID, String, Int64?, [String], Date, UUID?, String?, String?, UUID?, Data?, Date?).self)
            let app = Self.app((r.0, r.1, r.2, r.3, r.4, r.5))
            guard let id = r.6, let kind = r.7, let keyId = r.8, let issuerId = r.9, let publicKey = r.10, let created = r.11 else { return (app, nil) }
            return (app, try Self.key((id, r.1, r.0, kind, keyId, issuerId, publicKey, created)))
        }.first
    }

    func keys(appId: UUID?) async throws -> [AppKey] {
        try await scope.all(
            """
            SELECT \(unescaped: Self.keyColumns) FROM storegate.app_keys
            WHERE tenant_id = \(tenantId) AND (\(appId)::uuid IS NULL OR app_id = \(appId)) ORDER BY created_at, key_id
            """
        ) { try Self.key($0.decode(KeyColumns.self)) }
    }

    func insertKey(_ key: AppKey, sealed: SealedKey) async throws {
        try await scope.run(
            """
            INSERT INTO storegate.app_keys
                (id, tenant_id, app_id, kind, key_id, issuer_id, public_key, sealed_format, master_key_id, wrapped_data_key, ciphertext)
            VALUES (\(key.id), \(tenantId), \(key.appId), \(key.kind.rawValue), \(key.keyId), \(key.issuerId), \(key.publicKey),
                    \(sealed.format), \(sealed.masterKeyId), \(sealed.wrappedDataKey), \(sealed.ciphertext))
            """)
    }

    func sealedKey(id: UUID) async throws -> SealedKey? {
        try await scope.all(
            "SELECT sealed_format, master_key_id, wrapped_data_key, ciphertext FROM storegate.app_keys WHERE tenant_id = \(tenantId) AND id = \(id)"
        ) { row in
            let r = try row.decode((Int, String, Data, Data).self)
            return SealedKey(format: r.0, masterKeyId: r.1, wrappedDataKey: r.2, ciphertext: r.3)
        }.first
    }

    // MARK: Notification URLs

    func insertNotificationURL(_ url: NotificationURL) async throws {
        try await scope.run(
            """
            INSERT INTO storegate.webhooks (token, tenant_id, app_id, environment)
            VALUES (\(url.token), \(tenantId), \(url.appId), \(url.environment.rawValue)) ON CONFLICT (app_id, environment) DO NOTHING
            """)
    }

    func notificationURLs(appId: UUID) async throws -> [NotificationURL] {
        try await scope.all(
            "SELECT token, tenant_id, app_id, environment FROM storegate.webhooks WHERE tenant_id = \(tenantId) AND app_id = \(appId) ORDER BY environment"
        ) { row in
            let r = try row.decode((String, UUID, UUID, String).self)
            return NotificationURL(token: r.0, tenantId: r.1, appId: r.2, environment: AppStoreEnvironment(rawValue: r.3))
        }
    }

    // MARK: Retention rules

    func retentionRules(appId: UUID) async throws -> [RetentionRule]? {
        try await scope.first(
            "SELECT retention_rules::text FROM storegate.apps WHERE tenant_id = \(tenantId) AND id = \(appId) AND retention_rules IS NOT NULL", as: String.self
        ).map { try JSONColumn.decode([RetentionRule].self, from: $0, column: "apps.retention_rules") }
    }

    func setRetentionRules(appId: UUID, _ rules: [RetentionRule]?) async throws -> Bool {
        let json = try rules.map { try JSONColumn.encode($0) }
        return try await scope.first(
            "UPDATE storegate.apps SET retention_rules = \(json)::jsonb WHERE tenant_id = \(tenantId) AND id = \(appId) RETURNING id", as: UUID.self) != nil
    }
}

extension PostgresTenantUnit {
    var apps: any AppRegistry { AppRepository(scope: scope) }
}
