import AppStoreServer
import Foundation
import KeyVault
import Logging
import PostgresNIO
import Storegate

/// Finds the app and tenant behind a notification URL's token.
struct NotificationURLLookup: Sendable {
    let conn: PostgresConnection
    let logger: Logger

    /// Prepared once it repeats on a connection: every notification URL token cache miss runs it, one per
    /// notification at tenants that get fewer than one notification per cache lifetime.
    func find(token: String) async throws -> (notificationURL: NotificationURL, app: App, tenant: Tenant)? {
        try await conn.prepared(
            """
            SELECT w.environment, a.id, a.bundle_id, a.app_apple_id, a.environments, a.created_at, \(unescaped: TenantRepository.columns("t"))
            FROM storegate.webhooks w JOIN storegate.apps a ON a.id = w.app_id JOIN storegate.tenants t ON t.id = a.tenant_id
            WHERE w.token = \(token)
            """, logger: logger
        ) { row -> (notificationURL: NotificationURL, app: App, tenant: Tenant) in
            let r = try row.decode((String, UUID, String, Int64?, [String], Date, UUID, String, String, String, String, Int, Date, Int?, Int?, [Int]).self)
            let tenant = try TenantRepository.tenant((r.6, r.7, r.8, r.9, r.10, r.11, r.12, r.13, r.14, r.15))
            let app = AppRepository.app((r.1, tenant.id, r.2, r.3, r.4, r.5))
            return (NotificationURL(token: token, tenantId: tenant.id, appId: r.1, environment: AppStoreEnvironment(rawValue: r.0)), app, tenant)
        }.first
    }
}
