import Foundation
import KeyVault

extension Capabilities {
    /// Re-wraps every data key (of app keys and webhook secrets) that is not sealed with the active master
    /// key, a batch per transaction. The ciphertexts are untouched; afterwards the previous master keys are not needed.
    public func rotateMasterKey(actor: Actor, batchSize: Int = 100) async throws -> Int {
        let active = try vault.ring().active.id
        var total = 0
        while true {
            let count = try await persistence.control { unit in
                let batch = try await unit.sealedKeys.sealedWithOther(than: active, limit: batchSize)
                for (key, sealed) in batch {
                    let aad = KeyVault.associatedData(tenantId: key.tenantId, appId: key.appId, keyId: key.keyId)
                    try await unit.sealedKeys.replaceSealed(keyId: key.id, try vault.rewrap(sealed, associatedData: aad))
                }
                return batch.count
            }
            total += count
            if count < batchSize { break }
        }
        while true {
            let count = try await persistence.control { unit in
                let batch = try await unit.sealedKeys.webhookSecretsSealedWithOther(than: active, limit: batchSize)
                for (tenantId, secret) in batch {
                    let aad = SealedWebhookSecret.associatedData(tenantId: tenantId, endpointId: secret.endpointId, secretId: secret.id)
                    try await unit.sealedKeys.replaceSealed(webhookSecretId: secret.id, try vault.rewrap(secret.sealed, associatedData: aad))
                }
                return batch.count
            }
            total += count
            if count < batchSize { break }
        }
        try await persistence.control { unit in
            try await unit.audit([
                try NewAuditEntry(actor: actor, tenantId: nil, action: "keys.rotate-master", detail: ["masterKeyId": active, "rewrapped": String(total)])
            ])
        }
        return total
    }
}
