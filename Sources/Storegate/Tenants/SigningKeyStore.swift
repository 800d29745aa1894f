import Crypto
import Foundation
import KeyVault
import Synchronization

/// Opens sealed App Store Connect keys and keeps the parsed keys in memory, so signing never decrypts
/// or parses per request. Bounded: past `capacity` the oldest entry is dropped.
public final class SigningKeyStore: Sendable {
    let persistence: any Persistence
    let vault: KeyVault
    public let capacity: Int
    private let state = Mutex(State())

    struct State {
        var keys: [UUID: P256.Signing.PrivateKey] = [:]
        var order: [UUID] = []
        var decryptions = 0
    }

    init(persistence: any Persistence, vault: KeyVault, capacity: Int = 4096) {
        self.persistence = persistence
        self.vault = vault
        self.capacity = capacity
    }

    /// The private key of `key`, decrypted at most once while it stays cached.
    public func privateKey(for key: AppKey, of tenant: Tenant) async throws -> P256.Signing.PrivateKey {
        if let cached = state.withLock({ $0.keys[key.id] }) { return cached }
        let sealed = try await persistence.inTenant(tenant, .read) { try await $0.apps.sealedKey(id: key.id) }
        guard let sealed else { throw StoregateError.notFound(field: "keyId") }
        let raw: Data
        do {
            raw = try vault.open(sealed, associatedData: KeyVault.associatedData(tenantId: key.tenantId, appId: key.appId, keyId: key.keyId))
        } catch {
            throw StoregateError.keyUnavailable(keyId: key.keyId, reason: error.description)
        }
        let privateKey = try P256.Signing.PrivateKey(rawRepresentation: raw)
        state.withLock { state in
            state.decryptions += 1
            if state.keys.updateValue(privateKey, forKey: key.id) == nil {
                state.order.append(key.id)
                if state.order.count > capacity { state.keys[state.order.removeFirst()] = nil }
            }
        }
        return privateKey
    }

    /// Drops keys from the cache (after deletion).
    public func forget(_ ids: [UUID]) {
        state.withLock { state in
            for id in ids { state.keys[id] = nil }
            state.order.removeAll { ids.contains($0) }
        }
    }

    /// How many times a sealed key has been opened: for tests and metrics.
    public var decryptionCount: Int { state.withLock { $0.decryptions } }
}
