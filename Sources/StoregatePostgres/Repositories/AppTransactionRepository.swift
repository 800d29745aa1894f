import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// App transactions in the tenant's schema, read with the customer their `appTransactionId` is linked to.
struct AppTransactionRepository: AppTransactionStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    static let columns = """
        a.app_id, a.environment, a.app_transaction_id, a.original_purchase_date, a.original_platform, a.signed_date, a.signed_app_transaction,
        a.payload::text, a.consent_rescinded_at, l.customer
        """

    func upsert(_ a: StoredAppTransaction) async throws {
        try await scope.run(
            """
            INSERT INTO \(unescaped: schema).app_transactions AS a
                (app_id, environment, app_transaction_id, original_purchase_date, original_platform, signed_date, signed_app_transaction, payload,
                 consent_rescinded_at)
            VALUES (\(a.appId), \(a.environment.rawValue), \(a.appTransactionId), \(a.originalPurchaseDate), \(a.originalPlatform), \(a.signedDate),
                    \(a.signedAppTransaction), \(a.payload)::jsonb, \(a.consentRescindedAt))
            ON CONFLICT (app_id, environment, app_transaction_id) DO UPDATE SET
                original_purchase_date = excluded.original_purchase_date, original_platform = excluded.original_platform, signed_date = excluded.signed_date,
                signed_app_transaction = excluded.signed_app_transaction, payload = excluded.payload,
                consent_rescinded_at = coalesce(a.consent_rescinded_at, excluded.consent_rescinded_at), updated_at = excluded.updated_at
            """)
    }

    func find(appId: UUID, appTransactionId: String) async throws -> StoredAppTransaction? {
        try await rows(
            """
            SELECT \(unescaped: Self.columns) FROM \(unescaped: schema).app_transactions a
            LEFT JOIN \(unescaped: schema).account_links l ON l.app_id = a.app_id AND l.kind = 'appTransactionId' AND l.value = a.app_transaction_id
            WHERE a.app_id = \(appId) AND a.app_transaction_id = \(appTransactionId)
            ORDER BY a.updated_at DESC LIMIT 1
            """
        ).first
    }

    func list(customer: UUID) async throws -> [StoredAppTransaction] {
        try await rows(
            """
            SELECT \(unescaped: Self.columns) FROM \(unescaped: schema).account_links l
            JOIN \(unescaped: schema).app_transactions a ON a.app_id = l.app_id AND a.app_transaction_id = l.value
            WHERE l.customer = \(customer) AND l.kind = 'appTransactionId'
            ORDER BY a.app_id, a.environment
            """)
    }

    private func rows(_ query: PostgresQuery) async throws -> [StoredAppTransaction] {
        try await scope.all(query) { row in
            let r = try row.decode((UUID, String, String, Date?, String?, Date?, String, String, Date?, UUID?).self)
            return StoredAppTransaction(
                appId: r.0, environment: AppStoreEnvironment(rawValue: r.1), appTransactionId: r.2, originalPurchaseDate: r.3, originalPlatform: r.4,
                signedDate: r.5, signedAppTransaction: r.6, payload: r.7, consentRescindedAt: r.8, customer: r.9)
        }
    }
}

extension PostgresTenantUnit {
    var appTransactions: any AppTransactionStore { AppTransactionRepository(scope: scope) }
}
