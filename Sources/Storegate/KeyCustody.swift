import Foundation
import KeyVault
import StoregatePostgres

extension Services {
    /// Re-wraps every data key that is not sealed with the active master key, a batch per transaction.
    /// The private-key ciphertexts are untouched; afterwards the previous master keys are not needed.
    public func rotateMasterKey(actor: Actor, batchSize: Int = 100) async throws -> Int {
        let repositories = Repositories(logger: database.logger)
        var total = 0
        while true {
            let count = try await database.transaction { conn in
                let batch = try await repositories.apps.keysToRewrap(excluding: vault.ring().active.id, limit: batchSize, on: conn)
                for (key, sealed) in batch {
                    let aad = KeyVault.associatedData(tenantId: key.tenantId, appId: key.appId, keyId: key.keyId)
                    try await repositories.apps.updateSealed(keyRowId: key.id, try vault.rewrap(sealed, associatedData: aad), on: conn)
                }
                return batch.count
            }
            total += count
            if count < batchSize { break }
        }
        try await database.transaction { conn in
            try await repositories.audit.record(
                actor: actor.description, tenantId: nil, action: "keys.rotate-master", detail: ["masterKeyId": try vault.ring().active.id, "rewrapped": String(total)],
                on: conn)
        }
        return total
    }
}
