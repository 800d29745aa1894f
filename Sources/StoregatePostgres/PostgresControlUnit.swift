import Foundation
import Logging
import PostgresNIO
import Storegate

/// A unit of work over the control schema.
struct PostgresControlUnit: ControlUnit {
    let conn: PostgresConnection
    let logger: Logger
    let migrator: Migrator

    var tenants: any TenantRegistry { TenantRepository(conn: conn, logger: logger, migrator: migrator) }
    var apiKeys: any APIKeyLookup { APIKeyRepository(conn: conn, logger: logger, tenantId: nil) }
    var sealedKeys: any SealedKeyRewrap { SealedKeyRepository(conn: conn, logger: logger) }
    var jobs: any Storegate.JobQueue { JobRepository(conn: conn, logger: logger, tenantId: nil) }
    var inbox: any NotificationInbox { NotificationInboxRepository(conn: conn, logger: logger) }
    var console: any ConsoleStore { ConsoleRepository(conn: conn, logger: logger) }
    var exchangeRates: any ExchangeRateStore { ExchangeRateRepository(conn: conn, logger: logger) }

    func notificationURL(token: String) async throws -> (notificationURL: NotificationURL, app: App, tenant: Tenant)? {
        try await NotificationURLLookup(conn: conn, logger: logger).find(token: token)
    }

    func audit(_ entries: [NewAuditEntry]) async throws {
        try await AuditRepository(conn: conn, logger: logger, tenantId: nil).append(entries)
    }

    /// For the tenant's audit and manifest rows; holdings written here would not be announced.
    func inTenant(_ tenant: Tenant) throws -> any TenantUnit {
        PostgresTenantUnit(
            tenant: tenant, schema: try TenantSchema(validating: tenant.storageName), conn: conn, logger: logger,
            changes: UnitChanges(tenant: tenant.id, observers: nil))
    }
}
