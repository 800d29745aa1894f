import Foundation

/// Each tenant's catalog, per process: what every access answer reads (`entitlements.check` and `.list`,
/// a grant's check, the `entitlements.changed` event), with no database round trip per call. It is kept
/// as the tenant's other caches are (`CacheCoherence`): the statement that replaces a catalog announces
/// its tenant on the change feed in its transaction (`CatalogStore.setCatalog`), so every process drops
/// the entry as it commits, and the process that replaced it drops it at once when its unit returns
/// (`changed`). While the feed is not heard, an entry lives `ttl` (the caches' short TTL), and whenever
/// following starts or stops, everything is dropped.
final class CatalogCache: Sendable {
    private let entries: ExpiringCache<UUID, Catalog>

    init(ttl: Duration, coherence: CacheCoherence) {
        entries = ExpiringCache(ttl: ttl, coherence: coherence) { tenant, _ in tenant }
    }

    /// The tenant's catalog (empty before one was set), loaded by `load` when not held: through a unit of
    /// work of the caller's, or on its own.
    func catalog(tenant: UUID, load: () async throws -> Catalog?) async throws -> Catalog {
        try await entries.value(for: tenant) { try await load() ?? Catalog() }
    }

    /// This process committed a new catalog for `tenant`: its entries go now (and any load that overlapped
    /// is not remembered), as they would when the change feed tells of it.
    func changed(tenant: UUID) { entries.coherence.changed(tenant: tenant) }
}
