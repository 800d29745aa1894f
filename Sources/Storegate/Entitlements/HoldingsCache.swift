import Foundation
import Synchronization

/// Customers' holdings as stored, per process, behind `subscriptions.status`, `entitlements.list` and the
/// status read by transaction ID. It holds facts, not answers: a subscription's expiry, grace period and
/// billing retry are kept as dates, and its status is worked out at each read, so an expiry turns the
/// status with no write at all.
///
/// Invalidation is exact, per customer: a unit of work that writes a customer's subscriptions,
/// transactions or links records the customer. This process drops the customer's entries as the unit
/// writes them, neither serves nor keeps any until the unit is over (its commit may land at any moment,
/// and a reader may learn of it from a row it polls), and drops them again before the unit returns (read
/// your own writes); the other processes hear it through the change feed (`CacheChange.holdings`).
/// A load that overlaps an invalidation of its customer (or of its tenant, or of everything) is returned
/// but not remembered. While the change feed is not heard, entries
/// are kept only `ttl`; whenever following starts or stops, everything is dropped.
///
/// Bounded in entries and in (estimated) bytes, the least recently used going first.
public final class HoldingsCache: TenantCache {
    /// How much it holds, and who is told of its hits, misses and evictions (metrics).
    public struct Settings: Sendable {
        public var entries: Int
        public var bytes: Int
        public var observe: @Sendable (Outcome) -> Void

        public init(entries: Int = 100_000, bytes: Int = 128 << 20, observe: @escaping @Sendable (Outcome) -> Void = { _ in }) {
            self.entries = entries
            self.bytes = bytes
            self.observe = observe
        }
    }

    /// What a read found, for metrics; `eviction` is an entry dropped to stay within the limits.
    public enum Outcome: String, Sendable {
        case hit, miss, eviction
    }

    /// What a read asks for.
    enum Subject: Hashable, Sendable {
        /// A customer by the tenant's id; with `purchases`, their one-time purchases too.
        case customer(String, purchases: Bool)
        /// The subscriptions, in this app, of the customer who owns the transaction.
        case transaction(appId: UUID, transactionId: String)
    }

    fileprivate struct Key: Hashable {
        let tenant: UUID
        let subject: Subject
    }

    fileprivate struct Owner: Hashable {
        let tenant: UUID
        let customer: UUID
    }

    fileprivate struct Entry {
        let holdings: Holdings
        let bytes: Int
        let until: ContinuousClock.Instant
    }

    fileprivate struct State {
        var entries: [Key: Entry] = [:]
        var order = LRUOrder<Key>()
        var keys: [Owner: Set<Key>] = [:]
        var bytes = 0
        /// Counts invalidations: a load remembers its value only when nothing it was loaded from was
        /// invalidated since it started.
        var clock: UInt64 = 0
        var invalidated: [Owner: UInt64] = [:]
        var tenantsInvalidated: [UUID: UInt64] = [:]
        /// Loads started before this are not remembered: the invalidations before it were forgotten.
        var horizon: UInt64 = 0
        /// Customers this process's units are writing now, with how many units.
        var writers: [Owner: Int] = [:]
    }

    let settings: Settings
    /// How long entries are kept while changes are not followed.
    let ttl: Duration
    let coherence: CacheCoherence
    var observe: @Sendable (Outcome) -> Void { settings.observe }
    private let state = Mutex(State())
    /// Invalidations remembered, past which the oldest are forgotten (and loads begun before them are not kept).
    static let invalidationsKept = 50_000

    init(_ settings: Settings, ttl: Duration, coherence: CacheCoherence) {
        self.settings = settings
        self.ttl = ttl
        self.coherence = coherence
        coherence.register(self)
    }

    /// The holdings for `subject`, loaded when not held. Nil (not found) is not remembered.
    func holdings(tenant: UUID, _ subject: Subject, load: () async throws -> Holdings?) async throws -> Holdings? {
        if let hit = cached(tenant: tenant, subject) { return hit }
        let since = loadStarts()
        guard let loaded = try await load() else { return nil }
        remember(loaded, tenant: tenant, subject, loadedSince: since)
        return loaded
    }

    /// What is held for `subject`, counted as a hit or a miss. A customer's holdings with their purchases
    /// serve a read without them.
    func cached(tenant: UUID, _ subject: Subject) -> Holdings? {
        let now = ContinuousClock.now
        // The key itself, then (for a read without purchases) the same customer's with them: no array per read.
        var wider: Key?
        if case .customer(let id, purchases: false) = subject { wider = Key(tenant: tenant, subject: .customer(id, purchases: true)) }
        let found = state.withLock { state -> Holdings? in
            func held(_ key: Key) -> Holdings? {
                guard let entry = state.entries[key] else { return nil }
                guard entry.until > now else {
                    state.drop(key)
                    return nil
                }
                state.order.use(key)
                return entry.holdings
            }
            return held(Key(tenant: tenant, subject: subject)) ?? wider.flatMap(held)
        }
        observe(found == nil ? .miss : .hit)
        return found
    }

    /// A mark to pass to `remember` for a load that starts now.
    func loadStarts() -> UInt64 { state.withLock { $0.clock } }

    /// Remembers holdings loaded since `since`, unless their customer, their tenant or everything was
    /// invalidated since.
    func remember(_ holdings: Holdings, tenant: UUID, _ subject: Subject, loadedSince since: UInt64) {
        let owner = Owner(tenant: tenant, customer: holdings.customer)
        let key = Key(tenant: tenant, subject: subject)
        let retention = coherence.isFollowing ? coherence.followedTTL : ttl
        let entry = Entry(holdings: holdings, bytes: Self.estimatedBytes(holdings), until: .now + retention)
        let evicted = state.withLock { state -> Int in
            guard since >= state.horizon, state.writers[owner] == nil, (state.invalidated[owner] ?? 0) <= since,
                (state.tenantsInvalidated[tenant] ?? 0) <= since
            else { return 0 }
            state.drop(key)
            state.entries[key] = entry
            state.order.use(key)
            state.keys[owner, default: []].insert(key)
            state.bytes += entry.bytes
            var evicted = 0
            while state.entries.count > settings.entries || state.bytes > settings.bytes, let oldest = state.order.leastRecent {
                state.drop(oldest)
                evicted += 1
            }
            return evicted
        }
        for _ in 0..<evicted { observe(.eviction) }
    }

    func forget(customer: UUID, tenant: UUID) {
        state.withLock { $0.invalidate(Owner(tenant: tenant, customer: customer)) }
    }

    func writing(customer: UUID, tenant: UUID) {
        let owner = Owner(tenant: tenant, customer: customer)
        state.withLock { state in
            state.writers[owner, default: 0] += 1
            state.invalidate(owner)
        }
    }

    func settled(customer: UUID, tenant: UUID) {
        let owner = Owner(tenant: tenant, customer: customer)
        state.withLock { state in
            if let count = state.writers[owner] { state.writers[owner] = count > 1 ? count - 1 : nil }
            state.invalidate(owner)
        }
    }

    func forget(tenant: UUID) {
        state.withLock { state in
            state.clock += 1
            state.tenantsInvalidated[tenant] = state.clock
            for key in state.entries.keys where key.tenant == tenant { state.drop(key) }
            state.forgetOldInvalidations()
        }
    }

    func forgetAll() {
        state.withLock { state in
            let clock = state.clock + 1
            state = State(writers: state.writers)
            state.clock = clock
            state.horizon = clock
        }
    }

    /// Entries held and their estimated bytes.
    public var usage: (entries: Int, bytes: Int) { state.withLock { ($0.entries.count, $0.bytes) } }

    /// A rough size: the value types' own sizes and the text they hold.
    static func estimatedBytes(_ holdings: Holdings) -> Int {
        let subscriptions = holdings.subscriptions.reduce(0) { sum, s in
            sum + MemoryLayout<Subscription>.stride + s.originalTransactionId.utf8.count + s.productId.utf8.count + s.latestTransactionId.utf8.count
                + (s.offerIdentifier?.utf8.count ?? 0) + (s.renewal == nil ? 0 : 256)
        }
        let purchases = holdings.purchases.reduce(0) { sum, p in
            sum + MemoryLayout<OneTimePurchase>.stride + p.transactionId.utf8.count + p.originalTransactionId.utf8.count + p.productId.utf8.count
        }
        return 256 + subscriptions + purchases
    }
}

extension HoldingsCache.State {
    fileprivate mutating func invalidate(_ owner: HoldingsCache.Owner) {
        clock += 1
        invalidated[owner] = clock
        for key in keys[owner] ?? [] { drop(key) }
        forgetOldInvalidations()
    }

    fileprivate mutating func drop(_ key: HoldingsCache.Key) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        order.remove(key)
        bytes -= entry.bytes
        let owner = HoldingsCache.Owner(tenant: key.tenant, customer: entry.holdings.customer)
        keys[owner]?.remove(key)
        if keys[owner]?.isEmpty == true { keys[owner] = nil }
    }

    fileprivate mutating func forgetOldInvalidations() {
        guard invalidated.count + tenantsInvalidated.count > HoldingsCache.invalidationsKept else { return }
        invalidated.removeAll()
        tenantsInvalidated.removeAll()
        horizon = clock
    }
}
