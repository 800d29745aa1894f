import AppStoreServer
import Foundation
import KeyVault
import Logging
import PostgresNIO
import Storegate

/// Sealed keys across tenants, for master-key rotation.
struct SealedKeyRepository: SealedKeyRewrap {
    let conn: PostgresConnection
    let logger: Logger

    func sealedWithOther(than masterKeyId: String, limit: Int) async throws -> [(key: AppKey, sealed: SealedKey)] {
        try await conn.all(
            """
            SELECT \(unescaped: AppRepository.keyColumns), sealed_format, master_key_id, wrapped_data_key, ciphertext FROM storegate.app_keys
            WHERE master_key_id <> \(masterKeyId) ORDER BY id LIMIT \(limit) FOR UPDATE SKIP LOCKED
            """, logger: logger
        ) { row -> (key: AppKey, sealed: SealedKey) in
            let r = try row.decode((UUID, UUID, UUID, String, String, UUID, Data, Date, Int, String, Data, Data).self)
            return (
                try AppRepository.key((r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7)),
                SealedKey(format: r.8, masterKeyId: r.9, wrappedDataKey: r.10, ciphertext: r.11)
            )
        }
    }

    func replaceSealed(keyId: UUID, _ sealed: SealedKey) async throws {
        try await conn.run(
            """
            UPDATE storegate.app_keys SET master_key_id = \(sealed.masterKeyId), wrapped_data_key = \(sealed.wrappedDataKey), rewrapped_at = now()
            WHERE id = \(keyId)
            """, logger: logger)
    }

    func webhookSecretsSealedWithOther(than masterKeyId: String, limit: Int) async throws -> [(tenantId: UUID, secret: SealedWebhookSecret)] {
        try await conn.all(
            """
            SELECT tenant_id, id, endpoint_id, sealed_format, master_key_id, wrapped_data_key, ciphertext, expires_at FROM storegate.webhook_secrets
            WHERE master_key_id <> \(masterKeyId) ORDER BY id LIMIT \(limit) FOR UPDATE SKIP LOCKED
            """, logger: logger
        ) { row -> (tenantId: UUID, secret: SealedWebhookSecret) in
            let r = try row.decode((UUID, UUID, UUID, Int, String, Data, Data, Date?).self)
            return (
                r.0,
                SealedWebhookSecret(
                    id: r.1, endpointId: r.2, sealed: SealedKey(format: r.3, masterKeyId: r.4, wrappedDataKey: r.5, ciphertext: r.6), expiresAt: r.7)
            )
        }
    }

    func replaceSealed(webhookSecretId: UUID, _ sealed: SealedKey) async throws {
        try await conn.run(
            """
            UPDATE storegate.webhook_secrets SET master_key_id = \(sealed.masterKeyId), wrapped_data_key = \(sealed.wrappedDataKey), rewrapped_at = now()
            WHERE id = \(webhookSecretId)
            """, logger: logger)
    }
}
