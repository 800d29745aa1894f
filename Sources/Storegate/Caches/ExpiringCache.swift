import Foundation
import Synchronization

/// Values of tenants, loaded in the last `ttl`, by key: what every request needs (its API key's tenant, a
/// webhook token's app, an app's signer) and rarely changes. `coherence` drops a tenant's entries as soon
/// as any process changes what they were loaded from, and keeps entries longer while it can; without it
/// (while the change feed is not heard) a change made elsewhere takes effect here within `ttl`. At most
/// `capacity` entries: past it, expired entries go, then all of them.
final class ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: TenantCache {
    let ttl: Duration
    let capacity: Int
    let coherence: CacheCoherence
    /// The tenant an entry belongs to.
    let tenant: @Sendable (Key, Value) -> UUID
    private let entries = Mutex([Key: (value: Value, until: ContinuousClock.Instant)]())

    init(ttl: Duration, capacity: Int = 10_000, coherence: CacheCoherence, tenant: @escaping @Sendable (Key, Value) -> UUID) {
        self.ttl = ttl
        self.capacity = capacity
        self.coherence = coherence
        self.tenant = tenant
        coherence.register(self)
    }

    /// The value for `key`, loaded when not held or expired. What `load` throws is not remembered.
    func value(for key: Key, load: () async throws -> Value) async throws -> Value {
        if let hit = cached(key) { return hit }
        let generation = coherence.generation
        let value = try await load()
        remember(value, for: key, loadedSince: generation)
        return value
    }

    /// The value for `key`, loaded when not held or expired; nil (not found) is not remembered, so
    /// something added is found at once.
    func value(for key: Key, loadIfFound load: () async throws -> Value?) async throws -> Value? {
        if let hit = cached(key) { return hit }
        let generation = coherence.generation
        guard let value = try await load() else { return nil }
        remember(value, for: key, loadedSince: generation)
        return value
    }

    func cached(_ key: Key) -> Value? {
        let now = ContinuousClock.now
        return entries.withLock { entries in
            guard let hit = entries[key], hit.until > now else { return nil }
            return hit.value
        }
    }

    /// Remembers a value loaded since the coherence's `generation` was read, unless a change was heard
    /// since. Checked under the lock that `forget` takes, so a change heard during the load either
    /// prevents the entry or drops it right after.
    private func remember(_ value: Value, for key: Key, loadedSince generation: UInt64) {
        let now = ContinuousClock.now
        entries.withLock { entries in
            guard let retention = coherence.retention(loadedSince: generation, ttl: ttl) else { return }
            if entries.count >= capacity, entries[key] == nil { entries = entries.filter { $0.value.until > now } }
            if entries.count >= capacity, entries[key] == nil { entries.removeAll() }
            entries[key] = (value, now + retention)
        }
    }

    func forget(tenant tenantId: UUID) {
        entries.withLock { entries in entries = entries.filter { tenant($0.key, $0.value.value) != tenantId } }
    }

    func forgetAll() { entries.withLock { $0.removeAll() } }
}
