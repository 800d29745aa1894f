import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// External purchase tokens Apple announced, in the tenant's schema.
struct ExternalPurchaseTokenRepository: ExternalPurchaseTokenStore {
    let scope: TenantScope
    var s: String { scope.sql }

    @discardableResult
    func record(_ t: ExternalPurchaseTokenRecord) async throws -> Bool {
        try await scope.first(
            """
            INSERT INTO \(unescaped: s).external_purchase_tokens (app_id, environment, external_purchase_id, token_creation_date, subtype, notification_uuid)
            VALUES (\(t.appId), \(t.environment.rawValue), \(t.externalPurchaseId), \(t.tokenCreationDate), \(t.subtype?.rawValue), \(t.notificationUUID))
            ON CONFLICT (app_id, external_purchase_id) DO NOTHING
            RETURNING 1
            """, as: Int.self) != nil
    }

    func list(appId: UUID?, limit: Int) async throws -> [ExternalPurchaseTokenRecord] {
        try await scope.all(
            """
            SELECT app_id, environment, external_purchase_id, token_creation_date, subtype, notification_uuid, received_at
            FROM \(unescaped: s).external_purchase_tokens
            WHERE \(appId)::uuid IS NULL OR app_id = \(appId)
            ORDER BY received_at DESC, external_purchase_id LIMIT \(limit)
            """
        ) { row in
            let r = try row.decode((UUID, String, String, Date?, String?, UUID, Date).self)
            return ExternalPurchaseTokenRecord(
                appId: r.0, environment: AppStoreEnvironment(rawValue: r.1), externalPurchaseId: r.2, tokenCreationDate: r.3,
                subtype: r.4.map(Subtype.init(rawValue:)), notificationUUID: r.5, receivedAt: r.6)
        }
    }
}

extension PostgresTenantUnit {
    var externalPurchaseTokens: any ExternalPurchaseTokenStore { ExternalPurchaseTokenRepository(scope: scope) }
}
