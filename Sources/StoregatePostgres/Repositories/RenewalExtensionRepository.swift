import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// Renewal-date extensions in the tenant's schema.
struct RenewalExtensionRepository: RenewalExtensionStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    func record(_ e: RenewalExtension) async throws {
        try await scope.run(
            """
            INSERT INTO \(unescaped: schema).renewal_extensions
                (request_identifier, app_id, environment, original_transaction_id, product_id, extend_by_days, extend_reason_code, mass, effective_date, succeeded)
            VALUES (\(e.requestIdentifier), \(e.appId), \(e.environment?.rawValue ?? ""), \(e.originalTransactionId), \(e.productId), \(e.days), \(e.reasonCode),
                    \(e.mass), \(e.effectiveDate), \(e.succeeded))
            ON CONFLICT (request_identifier) DO UPDATE SET environment = excluded.environment, effective_date = excluded.effective_date, succeeded = excluded.succeeded
            """)
    }

    func recent(appId: UUID, originalTransactionId: String) async throws -> [Date] {
        try await scope.column(
            """
            SELECT requested_at FROM \(unescaped: schema).renewal_extensions
            WHERE app_id = \(appId) AND original_transaction_id = \(originalTransactionId) AND mass = false AND succeeded IS NOT FALSE
              AND requested_at > now() - interval '365 days'
            ORDER BY requested_at
            """, as: Date.self)
    }

    func requested(appId: UUID, originalTransactionId: String, expiresDate: Date) async throws -> Bool {
        try await scope.first(
            """
            SELECT EXISTS (
                SELECT 1 FROM \(unescaped: schema).renewal_extensions
                WHERE app_id = \(appId) AND original_transaction_id = \(originalTransactionId) AND mass = false
                  AND (succeeded AND abs(extract(epoch FROM effective_date - \(expiresDate))) < 1
                       OR succeeded IS NULL AND requested_at > now() - interval '1 hour'))
            """, as: Bool.self) ?? false
    }

    func lock(appId: UUID, originalTransactionId: String) async throws {
        try await scope.run("SELECT pg_advisory_xact_lock(hashtextextended(\(appId.uuidString + "/" + originalTransactionId), 17))")
    }

    func recordSummary(_ m: MassExtensionSummary) async throws {
        try await scope.run(
            """
            INSERT INTO \(unescaped: schema).renewal_extensions AS r
                (request_identifier, app_id, environment, product_id, mass, succeeded, storefront_country_codes, succeeded_count, failed_count, completed_at)
            VALUES (\(m.requestIdentifier), \(m.appId), \(m.environment.rawValue), \(m.productId), true, true, \(m.storefrontCountryCodes), \(m.succeededCount),
                    \(m.failedCount), \(m.completedAt))
            ON CONFLICT (request_identifier) DO UPDATE SET
                succeeded = true, succeeded_count = excluded.succeeded_count, failed_count = excluded.failed_count, completed_at = excluded.completed_at,
                storefront_country_codes = coalesce(r.storefront_country_codes, excluded.storefront_country_codes)
            WHERE r.app_id = excluded.app_id
            """)
    }

    func summary(appId: UUID, requestIdentifier: String) async throws -> MassExtensionSummary? {
        try await scope.all(
            """
            SELECT request_identifier, environment, product_id, storefront_country_codes, succeeded_count, failed_count, completed_at
            FROM \(unescaped: schema).renewal_extensions
            WHERE app_id = \(appId) AND request_identifier = \(requestIdentifier) AND completed_at IS NOT NULL
            """
        ) { row in
            let r = try row.decode((String, String, String?, [String]?, Int64, Int64, Date).self)
            return MassExtensionSummary(
                requestIdentifier: r.0, appId: appId, environment: AppStoreEnvironment(rawValue: r.1), productId: r.2, storefrontCountryCodes: r.3,
                succeededCount: r.4, failedCount: r.5, completedAt: r.6)
        }.first
    }
}

extension PostgresTenantUnit {
    var extensions: any RenewalExtensionStore { RenewalExtensionRepository(scope: scope) }
}
