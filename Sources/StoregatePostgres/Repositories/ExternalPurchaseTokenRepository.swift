import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// External purchase tokens Apple announced, in the tenant's schema.
struct ExternalPurchaseTokenRepository: ExternalPurchaseTokenStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    /// A token is one row: a later notification of it (CREATED, then ACTIVE_TOKEN_REMINDER or UNREPORTED)
    /// updates its subtype and what it adds; the same notification again changes nothing.
    @discardableResult
    func record(_ t: ExternalPurchaseTokenRecord) async throws -> Bool {
        try await scope.first(
            """
            INSERT INTO \(unescaped: schema).external_purchase_tokens AS t
                (app_id, environment, external_purchase_id, token_creation_date, subtype, notification_uuid, token_type, token_expiration_date)
            VALUES (\(t.appId), \(t.environment.rawValue), \(t.externalPurchaseId), \(t.tokenCreationDate), \(t.subtype?.rawValue), \(t.notificationUUID),
                    \(t.tokenType), \(t.tokenExpirationDate))
            ON CONFLICT (app_id, external_purchase_id) DO UPDATE SET
                subtype = excluded.subtype, notification_uuid = excluded.notification_uuid, received_at = now(),
                token_creation_date = coalesce(excluded.token_creation_date, t.token_creation_date),
                token_type = coalesce(excluded.token_type, t.token_type),
                token_expiration_date = coalesce(excluded.token_expiration_date, t.token_expiration_date)
            WHERE t.notification_uuid <> excluded.notification_uuid
            RETURNING 1
            """, as: Int.self) != nil
    }

    func list(appId: UUID?, limit: Int) async throws -> [ExternalPurchaseTokenRecord] {
        try await scope.all(
            """
            SELECT app_id, environment, external_purchase_id, token_creation_date, subtype, notification_uuid, token_type, token_expiration_date, received_at
            FROM \(unescaped: schema).external_purchase_tokens
            WHERE \(appId)::uuid IS NULL OR app_id = \(appId)
            ORDER BY received_at DESC, external_purchase_id LIMIT \(limit)
            """
        ) { row in
            let r = try row.decode((UUID, String, String, Date?, String?, UUID, String?, Date?, Date).self)
            return ExternalPurchaseTokenRecord(
                appId: r.0, environment: AppStoreEnvironment(rawValue: r.1), externalPurchaseId: r.2, tokenCreationDate: r.3,
                subtype: r.4.map(Subtype.init(rawValue:)), notificationUUID: r.5, tokenType: r.6, tokenExpirationDate: r.7, receivedAt: r.8)
        }
    }
}

extension PostgresTenantUnit {
    var externalPurchaseTokens: any ExternalPurchaseTokenStore { ExternalPurchaseTokenRepository(scope: scope) }
}
