import Foundation
import Synchronization

/// Bundle IDs by app id, kept per process so results that name apps need no query for them. An app's id
/// is never reused and its bundle ID never changes, so an entry never goes stale: an id not known yet
/// (an app added since, by any process) reloads the tenant's apps, and an id still unknown after that
/// names an app that was removed before the read (its rows were written while it existed), remembered
/// as removed. Bounded: past `capacity` entries it starts over.
final class AppDirectory: Sendable {
    private struct Key: Hashable {
        let tenantId: UUID
        let appId: UUID
    }

    let persistence: any Persistence
    let capacity: Int
    /// nil: a removed app.
    private let entries = Mutex([Key: String?]())

    init(persistence: any Persistence, capacity: Int = 100_000) {
        self.persistence = persistence
        self.capacity = capacity
    }

    /// The bundle IDs of `appIds` (of apps of `tenant`); a removed app has none.
    func bundleIds(tenant: Tenant, covering appIds: some Sequence<UUID>) async throws -> [UUID: String] {
        try await bundleIds(tenant: tenant, covering: appIds) { [persistence] in try await persistence.inTenant(tenant, .read) { try await $0.apps.list() } }
    }

    /// The same, the tenant's apps listed by `load` when one is not known (through a unit of the caller's).
    func bundleIds(tenant: Tenant, covering appIds: some Sequence<UUID>, load: () async throws -> [App]) async throws -> [UUID: String] {
        // A read names one app or a few, mostly the same one again: an array, not a set.
        var keys: [Key] = []
        for appId in appIds where !keys.contains(where: { $0.appId == appId }) { keys.append(Key(tenantId: tenant.id, appId: appId)) }
        if let known = lookup(keys) { return known }
        let apps = try await load()
        entries.withLock { entries in
            if entries.count + apps.count > capacity { entries.removeAll() }
            for app in apps { entries[Key(tenantId: tenant.id, appId: app.id)] = .some(app.bundleId) }
            for key in keys where entries[key] == nil { entries[key] = .some(nil) }
        }
        return lookup(keys) ?? [:]
    }

    /// The bundle IDs of `keys` when every one is known.
    private func lookup(_ keys: [Key]) -> [UUID: String]? {
        entries.withLock { entries in
            var found: [UUID: String] = Dictionary(minimumCapacity: keys.count)
            for key in keys {
                guard let entry = entries[key] else { return nil }
                if let bundleId = entry { found[key.appId] = bundleId }
            }
            return found
        }
    }
}
