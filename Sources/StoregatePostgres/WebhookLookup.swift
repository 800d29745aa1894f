import AppStoreServer
import Foundation
import KeyVault
import Logging
import PostgresNIO
import Storegate

/// Finds the app and tenant behind a notification URL's token.
struct WebhookLookup: Sendable {
    let conn: PostgresConnection
    let logger: Logger

    /// Prepared once it repeats on a connection: every webhook token cache miss runs it, one per
    /// notification at tenants that get fewer than one notification per cache lifetime.
    func find(token: String) async throws -> (webhook: Webhook, app: App, tenant: Tenant)? {
        try await conn.hot(
            """
            SELECT w.environment, a.id, a.tenant_id, a.bundle_id, a.app_apple_id, a.environments, a.created_at,
                   t.slug, t.name, t.schema_name, t.status, t.schema_version, t.created_at
            FROM storegate.webhooks w JOIN storegate.apps a ON a.id = w.app_id JOIN storegate.tenants t ON t.id = a.tenant_id
            WHERE w.token = \(token)
            """, logger: logger
        ) { row -> (webhook: Webhook, app: App, tenant: Tenant) in
            let r = try row.decode((String, UUID, UUID, String, Int64?, [String], Date, String, String, String, String, Int, Date).self)
            let app = AppRepository.app((r.1, r.2, r.3, r.4, r.5, r.6))
            let tenant = Tenant(
                id: r.2, slug: r.7, name: r.8, storageName: try TenantSchema(validating: r.9).name, status: Tenant.Status(rawValue: r.10) ?? .suspended,
                schemaVersion: r.11, createdAt: r.12)
            return (Webhook(token: token, tenantId: r.2, appId: r.1, environment: AppStoreEnvironment(rawValue: r.0)), app, tenant)
        }.first
    }
}
