import AppStoreServer
import Foundation
import KeyVault
import PostgresNIO
import Storegate

/// The tenant's webhook endpoints and sealed secrets (control migration 4), always filtered by tenant.
struct WebhookEndpointRepository: WebhookEndpointStore {
    let scope: TenantScope
    var tenantId: UUID { scope.tenantId }

    static let columns = "id, tenant_id, url, description, event_types, app_id, environment, failing_since, created_at"

    func insert(_ endpoint: WebhookEndpoint, secret: SealedWebhookSecret) async throws {
        try await scope.run(
            """
            WITH endpoint AS (
                INSERT INTO storegate.webhook_endpoints (id, tenant_id, url, description, event_types, app_id, environment, created_at)
                VALUES (\(endpoint.id), \(tenantId), \(endpoint.url), \(endpoint.description), \(endpoint.eventTypes.map(\.rawValue))::text[],
                        \(endpoint.appId), \(endpoint.environment?.rawValue), \(endpoint.createdAt))
                RETURNING id
            )
            INSERT INTO storegate.webhook_secrets (id, endpoint_id, tenant_id, sealed_format, master_key_id, wrapped_data_key, ciphertext)
            SELECT \(secret.id), endpoint.id, \(tenantId), \(secret.sealed.format), \(secret.sealed.masterKeyId), \(secret.sealed.wrappedDataKey),
                   \(secret.sealed.ciphertext)
            FROM endpoint
            """)
    }

    func update(_ endpoint: WebhookEndpoint) async throws -> Bool {
        try await scope.first(
            """
            UPDATE storegate.webhook_endpoints SET url = \(endpoint.url), description = \(endpoint.description),
                event_types = \(endpoint.eventTypes.map(\.rawValue))::text[], app_id = \(endpoint.appId), environment = \(endpoint.environment?.rawValue),
                updated_at = now()
            WHERE id = \(endpoint.id) AND tenant_id = \(tenantId) RETURNING 1
            """, as: Int.self) != nil
    }

    /// The endpoint, then its deliveries (in the tenant's schema, which references nothing outside it).
    func delete(id: UUID) async throws -> Bool {
        guard
            try await scope.first("DELETE FROM storegate.webhook_endpoints WHERE id = \(id) AND tenant_id = \(tenantId) RETURNING 1", as: Int.self)
                != nil
        else { return false }
        try await scope.run("DELETE FROM \(unescaped: scope.sql).webhook_deliveries WHERE endpoint_id = \(id)")
        return true
    }

    func find(id: UUID) async throws -> WebhookEndpoint? {
        try await scope.all(
            "SELECT \(unescaped: Self.columns) FROM storegate.webhook_endpoints WHERE id = \(id) AND tenant_id = \(tenantId)", Self.endpoint
        ).first
    }

    func list() async throws -> [WebhookEndpoint] {
        try await scope.all(
            "SELECT \(unescaped: Self.columns) FROM storegate.webhook_endpoints WHERE tenant_id = \(tenantId) ORDER BY created_at, id", Self.endpoint)
    }

    func secrets(endpointId: UUID) async throws -> [SealedWebhookSecret] {
        try await scope.all(
            """
            SELECT id, endpoint_id, sealed_format, master_key_id, wrapped_data_key, ciphertext, expires_at FROM storegate.webhook_secrets
            WHERE endpoint_id = \(endpointId) AND tenant_id = \(tenantId) AND (expires_at IS NULL OR expires_at > now())
            ORDER BY expires_at DESC NULLS FIRST, created_at DESC
            """
        ) { row in
            let r = try row.decode((UUID, UUID, Int, String, Data, Data, Date?).self)
            return SealedWebhookSecret(
                id: r.0, endpointId: r.1, sealed: SealedKey(format: r.2, masterKeyId: r.3, wrappedDataKey: r.4, ciphertext: r.5), expiresAt: r.6)
        }
    }

    func rotate(endpointId: UUID, to secret: SealedWebhookSecret, previousUntil: Date) async throws {
        try await scope.run(
            """
            DELETE FROM storegate.webhook_secrets WHERE endpoint_id = \(endpointId) AND tenant_id = \(tenantId) AND expires_at IS NOT NULL
            """)
        try await scope.run(
            """
            UPDATE storegate.webhook_secrets SET expires_at = \(previousUntil)
            WHERE endpoint_id = \(endpointId) AND tenant_id = \(tenantId) AND expires_at IS NULL
            """)
        try await scope.run(
            """
            INSERT INTO storegate.webhook_secrets (id, endpoint_id, tenant_id, sealed_format, master_key_id, wrapped_data_key, ciphertext)
            VALUES (\(secret.id), \(endpointId), \(tenantId), \(secret.sealed.format), \(secret.sealed.masterKeyId), \(secret.sealed.wrappedDataKey),
                    \(secret.sealed.ciphertext))
            """)
    }

    static func endpoint(_ row: PostgresRow) throws -> WebhookEndpoint {
        let r = try row.decode((UUID, UUID, String, String, [String], UUID?, String?, Date?, Date).self)
        return WebhookEndpoint(
            id: r.0, tenantId: r.1, url: r.2, description: r.3, eventTypes: r.4.compactMap(Event.Kind.init(rawValue:)), appId: r.5,
            environment: r.6.map(AppStoreEnvironment.init(rawValue:)), failingSince: r.7, createdAt: r.8)
    }
}

extension PostgresTenantUnit {
    var webhookEndpoints: any WebhookEndpointStore { WebhookEndpointRepository(scope: scope) }
}
