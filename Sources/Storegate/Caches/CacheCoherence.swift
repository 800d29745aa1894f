import Foundation
import Logging
import Synchronization

/// Keeps the process's caches (callers by API key, offer signers, webhook targets, the worker's tenants,
/// customers' holdings) in step with what any process commits. PostgreSQL tells of every change to a
/// tenant, its API keys, apps, app keys or webhooks as it commits (`Persistence.followChanges`), and each
/// cache drops that tenant's entries at once: a revoked key is refused on its next use, a new app key
/// signs the next offer. A change to a customer's holdings drops that customer's holdings alone; this
/// process hears its own such writes as they are made and as their unit ends
/// (`Persistence.observeHoldingsWrites`), and in between neither serves nor keeps them.
///
/// While changes are followed, entries are kept for `followedTTL`. While they are not (before the first
/// listen, or after the listening connection is lost and until it is back) a change may go unheard, so
/// entries are kept only for each cache's own short TTL; and everything is dropped whenever following
/// starts or stops. A value loaded while a change arrived is returned but not remembered: it may predate
/// the change.
public final class CacheCoherence: Sendable {
    let persistence: any Persistence
    let followedTTL: Duration
    let logger: Logger
    private let following = Atomic(false)
    /// Counts changes heard (and starts and stops of following); see `ExpiringCache.remember`.
    private let changes = Atomic<UInt64>(0)
    private let caches = Mutex<[any TenantCache]>([])

    public init(persistence: any Persistence, logger: Logger, followedTTL: Duration = .seconds(300)) {
        self.persistence = persistence
        self.logger = logger
        self.followedTTL = followedTTL
        persistence.observeHoldingsWrites { [weak self] write in self?.heard(write) }
    }

    /// Whether changes are followed now.
    public var isFollowing: Bool { following.load(ordering: .acquiring) }

    var generation: UInt64 { changes.load(ordering: .acquiring) }

    func register(_ cache: some TenantCache) { caches.withLock { $0.append(cache) } }

    /// How long an entry loaded since `generation` is kept; nil when a change was heard since.
    func retention(loadedSince generation: UInt64, ttl: Duration) -> Duration? {
        guard self.generation == generation else { return nil }
        return isFollowing ? max(ttl, followedTTL) : ttl
    }

    /// Follows changes for as long as the task runs: listens, and after losing the connection listens
    /// again after 1 s, and after each failed attempt waits twice as long, up to 30 s.
    public func run() async {
        var wait = Duration.seconds(1)
        while !Task.isCancelled {
            do {
                try await persistence.followChanges(
                    listening: { [self] in changed(following: true) },
                    changed: { [self] change in
                        switch change {
                        case .tenant(let tenantId): changed(tenant: tenantId)
                        case .holdings(let tenantId, let customer): changed(holdingsOf: customer, tenant: tenantId)
                        }
                    })
            } catch is CancellationError {
            } catch {
                if !Task.isCancelled { logger.warning("cache coherence: not following changes", metadata: ["error": "\(error)"]) }
            }
            let wasFollowing = changed(following: false)
            wait = wasFollowing ? .seconds(1) : min(wait * 2, .seconds(30))
            try? await Task.sleep(for: wait)
        }
    }

    /// Counted before any entry is dropped, so that a load that overlaps the change is not remembered.
    func changed(tenant tenantId: UUID) {
        changes.add(1, ordering: .acquiringAndReleasing)
        for cache in caches.withLock({ $0 }) { cache.forget(tenant: tenantId) }
    }

    /// A customer's holdings changed: only the holdings cache holds them, and it keeps its own count of
    /// invalidations, so the other caches' loads are not spoiled by the many changes of holdings.
    func changed(holdingsOf customer: UUID, tenant: UUID) {
        for cache in caches.withLock({ $0 }) { cache.forget(customer: customer, tenant: tenant) }
    }

    /// This process's own unit wrote a customer's holdings, or is over.
    func heard(_ write: HoldingsWrite) {
        for cache in caches.withLock({ $0 }) {
            switch write {
            case .writing(let tenant, let customer): cache.writing(customer: customer, tenant: tenant)
            case .settled(let tenant, let customers): for customer in customers { cache.settled(customer: customer, tenant: tenant) }
            }
        }
    }

    /// Returns whether changes were followed before.
    @discardableResult private func changed(following now: Bool) -> Bool {
        changes.add(1, ordering: .acquiringAndReleasing)
        let before = following.exchange(now, ordering: .acquiringAndReleasing)
        for cache in caches.withLock({ $0 }) { cache.forgetAll() }
        return before
    }
}

/// A cache of values that belong to tenants.
protocol TenantCache: Sendable {
    func forget(tenant: UUID)
    func forgetAll()
    /// A customer's holdings changed (heard from the change feed).
    func forget(customer: UUID, tenant: UUID)
    /// This process is writing a customer's holdings: until `settled`, they may change at any moment.
    func writing(customer: UUID, tenant: UUID)
    /// The unit that was writing a customer's holdings is over, committed or not.
    func settled(customer: UUID, tenant: UUID)
}

extension TenantCache {
    func forget(customer: UUID, tenant: UUID) {}
    func writing(customer: UUID, tenant: UUID) {}
    func settled(customer: UUID, tenant: UUID) {}
}
