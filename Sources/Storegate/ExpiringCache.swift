import Synchronization

/// Values loaded in the last `ttl`, by key: what every request needs (its API key's tenant, a webhook
/// token's app, an app's signer) and rarely changes. A change made anywhere takes effect here within
/// `ttl`. At most `capacity` entries: past it, expired entries go, then all of them.
final class ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    let ttl: Duration
    let capacity: Int
    private let entries = Mutex([Key: (value: Value, until: ContinuousClock.Instant)]())

    init(ttl: Duration, capacity: Int = 10_000) {
        self.ttl = ttl
        self.capacity = capacity
    }

    /// The value for `key`, loaded when not held or expired. What `load` throws is not remembered.
    func value(for key: Key, load: () async throws -> Value) async throws -> Value {
        if let hit = cached(key) { return hit }
        let value = try await load()
        remember(value, for: key)
        return value
    }

    /// The value for `key`, loaded when not held or expired; nil (not found) is not remembered, so
    /// something added is found at once.
    func value(for key: Key, loadIfFound load: () async throws -> Value?) async throws -> Value? {
        if let hit = cached(key) { return hit }
        guard let value = try await load() else { return nil }
        remember(value, for: key)
        return value
    }

    func cached(_ key: Key) -> Value? {
        let now = ContinuousClock.now
        return entries.withLock { entries in
            guard let hit = entries[key], hit.until > now else { return nil }
            return hit.value
        }
    }

    func remember(_ value: Value, for key: Key) {
        let now = ContinuousClock.now
        entries.withLock { entries in
            if entries.count >= capacity, entries[key] == nil { entries = entries.filter { $0.value.until > now } }
            if entries.count >= capacity, entries[key] == nil { entries.removeAll() }
            entries[key] = (value, now + ttl)
        }
    }
}
