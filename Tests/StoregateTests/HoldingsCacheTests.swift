import AppStoreServer
import AppStoreSimulator
import Foundation
import NIOHTTP1
import Synchronization
import Testing

@testable import Storegate
@testable import StoregatePostgres

#if canImport(Glibc)
    import Glibc
#endif

/// The holdings cache behind `subscriptions.status` and `entitlements.list`: another process hears each
/// change as it commits, the process that wrote reads its own writes at once, time turns a status with
/// no write, and the cache stays within its limits.
@Suite(.timeLimit(.minutes(10))) struct HoldingsCacheTests {
    /// Storegate in this process applies Apple's notifications; a `storegate serve` beside it answers
    /// status reads from its cache. A renewal applied here is read there long before the cache's five
    /// minutes would end (the deadline is generous because the whole suite shares two cores; the time it
    /// took is printed, and is well under a second on a quiet machine).
    @Test func aNotificationAppliedByOneProcessIsReadThroughAnother() async throws {
        try await Storefront.with(slug: "twoprocesses") { s in
            let customer = try await s.result("accounts.ensure", ["customerId": "ada"])
            let token = try #require(UUID(uuidString: customer["appAccountToken"] as? String ?? ""))
            let bought = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("ada-device", token: token))
            let original = try #require(bought.originalTransactionId)
            try await s.processed(1)

            // The other process runs a job worker too, so it may be the one that applies the renewal: like every
            // server of a deployment it trusts the same root (the simulator's here), or it could not verify it.
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("simulator-root-\(UUID()).der")
            try s.simulator.ca.rootDER.write(to: root)
            defer { try? FileManager.default.removeItem(at: root) }
            let port = try FreePort.find()
            let other = try Subprocess(
                CLITests.binary, ["serve", "--port", String(port), "--trust-root", root.path],
                environment: ["STOREGATE_DATABASE_URL": s.databaseURL, "STOREGATE_LOG_LEVEL": "error", "PATH": "/usr/bin:/bin"])
            defer { other.signal(SIGKILL) }
            let there = TestServer(baseURL: "http://127.0.0.1:\(port)", client: s.server.client)
            try await eventually("the other process follows changes", timeout: .seconds(20)) {
                (try? await there.request("/metrics", method: .GET).text.contains("storegate_cache_coherence_following 1")) == true
            }
            @Sendable func latest() async throws -> String? {
                let reply = try await there.call("subscriptions.status", ["customerId": "ada"], apiKey: s.apiKey)
                let subscriptions = (reply["result"] as? [String: Any])?["subscriptions"] as? [[String: Any]]
                return subscriptions?.first?["latestTransactionId"] as? String
            }
            #expect(try await latest() == bought.transactionId)
            #expect(try await latest() == bought.transactionId)
            let metrics = try await there.request("/metrics", method: .GET).text
            #expect(metrics.contains(#"storegate_holdings_cache_total{outcome="hit"} 1"#), "the second read was the cache's: \(metrics)")

            let renewal = try await s.simulator.renew(originalTransactionId: original)
            try await s.processed(2)
            let applied = ContinuousClock.now
            try await eventually("the other process reads the renewal", timeout: .seconds(20)) { try await latest() == renewal.transactionId }
            print("HoldingsCacheTests: the other process read the renewal \(ContinuousClock.now - applied) after it was applied")
        }
    }

    /// The process that links a purchase reads it at once, though it does not follow the change feed here
    /// (its entries would otherwise be kept for the minute the cache's TTL allows).
    @Test func aProcessReadsItsOwnWrites() async throws {
        try await SimulatorHarness.with { sim in
            try await TestDatabase.with(
                authCacheTTL: .seconds(60), trust: (roots: [sim.simulator.ca.root], allowUnsignedEnvironments: false), appStoreURL: sim.baseURL
            ) { capabilities, _ in
                let made = try await Fixtures.tenant(capabilities, slug: "ownwrites", bundleId: SimulatorHarness.bundleId)
                let tenant = made.tenant.tenant
                #expect(!capabilities.coherence.isFollowing)
                _ = try await capabilities.accounts.ensure(tenant: tenant, customerId: "kim", actor: Actor("test"))
                #expect(try await capabilities.subscriptions.entitlements(tenant: tenant, customerId: "kim").purchases.isEmpty)
                #expect(try await capabilities.subscriptions.entitlements(tenant: tenant, customerId: "kim").purchases.isEmpty)
                #expect(capabilities.holdings.usage.entries == 1)

                let bought = await sim.store.purchase(
                    SimulatorStore.Purchase(
                        customer: "kim-device", bundleId: SimulatorHarness.bundleId, productId: "com.example.lifetime", type: .nonConsumable))
                let transactionId = try #require(bought.transactionId)
                let signed = try #require(try await sim.client.getTransactionInfo(transactionId: transactionId).signedTransactionInfo)
                _ = try await capabilities.accounts.link(
                    .transaction(signed), tenant: tenant, bundleId: SimulatorHarness.bundleId, customerId: "kim", transfer: false, actor: Actor("test"))
                let purchases = try await capabilities.subscriptions.entitlements(tenant: tenant, customerId: "kim").purchases
                #expect(purchases.map(\.transactionId) == [bought.transactionId], "read at once, not after the minute")
            }
        }
    }

    /// While a unit of work writes a customer's holdings, this process neither serves nor keeps them: its
    /// commit may land at any moment, and a reader that learns of it from a row it polls (a notification
    /// marked processed in the same transaction) must not be served the entry from before. Once the unit
    /// is over, committed or rolled back, they are kept again.
    @Test func holdingsBeingWrittenAreNeitherServedNorKept() async throws {
        try await TestDatabase.with(authCacheTTL: .seconds(60)) { capabilities, _ in
            let made = try await Fixtures.tenant(capabilities, slug: "writing", bundleId: "com.example.writing")
            let tenant = made.tenant.tenant
            let customer = try await capabilities.accounts.ensureCustomer(tenant: tenant, customerId: "ash", actor: Actor("test"))
            func subscription(autoRenew: Bool) -> Subscription {
                Subscription(
                    appId: made.appId, environment: .sandbox, originalTransactionId: "2000", subscriptionGroupIdentifier: "group", customer: customer.id,
                    status: .active, productId: "com.example.monthly", latestTransactionId: "2000", purchaseDate: Date(), expiresDate: Date() + 3600,
                    autoRenewStatus: autoRenew, autoRenewProductId: nil, inBillingRetry: false, gracePeriodExpiresDate: nil, offerType: nil,
                    offerIdentifier: nil, price: nil, currency: nil, signedDate: Date())
            }
            let autoRenews = { @Sendable () async throws -> Bool? in
                try await capabilities.subscriptions.status(tenant: tenant, customerId: "ash", bundleId: nil, transactionId: nil, refresh: false).first?
                    .autoRenewStatus
            }
            let held = { capabilities.holdings.cached(tenant: tenant.id, .customer("ash", purchases: false)) != nil }
            _ = try await capabilities.persistence.inTenant(tenant, .write) { try await $0.subscriptions.upsert(subscription(autoRenew: true)) }
            #expect(try await autoRenews() == true)
            #expect(held())

            try await capabilities.persistence.inTenant(tenant, .write) { unit in
                _ = try await unit.subscriptions.upsert(subscription(autoRenew: false))
                #expect(!held(), "dropped as it is written, before the commit")
                #expect(try await autoRenews() == true, "read from the database before the commit")
                #expect(!held(), "and not kept while the unit may commit")
            }
            #expect(try await autoRenews() == false)
            #expect(held())

            struct RolledBack: Error {}
            await #expect(throws: RolledBack.self) {
                try await capabilities.persistence.inTenant(tenant, .write) { unit in
                    _ = try await unit.subscriptions.upsert(subscription(autoRenew: true))
                    throw RolledBack()
                }
            }
            #expect(!held())
            #expect(try await autoRenews() == false, "the rolled-back write is not read")
            #expect(held(), "kept again once the unit is over")
        }
    }

    /// A subscription that expires turns `expired` at its expiry, read from the same cached entry: no
    /// write, no reload. The expiry is a few seconds ahead; on a machine so busy that the first read ends
    /// after it, the test starts again with a later one (the first read must see it active).
    @Test func anExpiryTurnsTheStatusWithNoWrite() async throws {
        try await TestDatabase.with(authCacheTTL: .seconds(60)) { capabilities, _ in
            let made = try await Fixtures.tenant(capabilities, slug: "expiring", bundleId: "com.example.expiring")
            let tenant = made.tenant.tenant
            var observed: (customerId: String, expires: Date, held: Holdings)?
            for (attempt, ahead) in [3.0, 10, 30].enumerated() where observed == nil {
                let customerId = "lee-\(attempt)"
                let customer = try await capabilities.accounts.ensureCustomer(tenant: tenant, customerId: customerId, actor: Actor("test"))
                let expires = Date() + ahead
                _ = try await capabilities.persistence.inTenant(tenant) { unit in
                    try await unit.subscriptions.upsert(
                        Subscription(
                            appId: made.appId, environment: .sandbox, originalTransactionId: "100\(attempt)", subscriptionGroupIdentifier: "group",
                            customer: customer.id, status: .active, productId: "com.example.monthly", latestTransactionId: "100\(attempt)",
                            purchaseDate: Date(), expiresDate: expires, autoRenewStatus: false, autoRenewProductId: nil, inBillingRetry: false,
                            gracePeriodExpiresDate: nil, offerType: nil, offerIdentifier: nil, price: nil, currency: nil, signedDate: Date()))
                }
                let first = try await capabilities.subscriptions.status(
                    tenant: tenant, customerId: customerId, bundleId: nil, transactionId: nil, refresh: false
                ).first?.status
                guard Date() < expires else { continue }
                #expect(first == .active)
                observed = (customerId, expires, try #require(capabilities.holdings.cached(tenant: tenant.id, .customer(customerId, purchases: false))))
            }
            let (customerId, expires, held) = try #require(observed, "a first read before the expiry, even 30 s ahead")
            let status = { @Sendable () async throws -> SubscriptionState.StatusName? in
                try await capabilities.subscriptions.status(tenant: tenant, customerId: customerId, bundleId: nil, transactionId: nil, refresh: false).first?
                    .status
            }
            try await eventually("expired at its expiry", timeout: .seconds(60)) { try await status() == .expired }
            #expect(Date() >= expires)
            let still = try #require(capabilities.holdings.cached(tenant: tenant.id, .customer(customerId, purchases: false)))
            #expect(still.subscriptions.map(\.expiresDate) == held.subscriptions.map(\.expiresDate), "the same stored facts")
            #expect(still.subscriptions.first?.status == .active, "stored as Apple last said; read as expired")
        }
    }

    /// At most `entries` entries and `bytes` bytes: the least recently used go first, each eviction told.
    @Test func theCacheIsBounded() async throws {
        try await TestDatabase.with { capabilities, _ in
            let evictions = Atomic(0)
            let cache = HoldingsCache(
                HoldingsCache.Settings(entries: 3, bytes: 1 << 20, observe: { if $0 == .eviction { evictions.add(1, ordering: .relaxed) } }),
                ttl: .seconds(60), coherence: capabilities.coherence)
            let tenant = UUID()
            func holdings(_ n: Int) -> Holdings {
                Holdings(customer: UUID(uuidString: "00000000-0000-0000-0000-00000000000\(n)")!, subscriptions: [], purchases: [])
            }
            for n in 1...3 { cache.remember(holdings(n), tenant: tenant, .customer("c\(n)", purchases: false), loadedSince: cache.loadStarts()) }
            _ = cache.cached(tenant: tenant, .customer("c1", purchases: false))
            for n in 4...5 { cache.remember(holdings(n), tenant: tenant, .customer("c\(n)", purchases: false), loadedSince: cache.loadStarts()) }
            #expect(cache.usage.entries == 3)
            #expect(evictions.load(ordering: .relaxed) == 2)
            #expect(cache.cached(tenant: tenant, .customer("c1", purchases: false)) != nil, "used last, so kept")
            #expect(cache.cached(tenant: tenant, .customer("c2", purchases: false)) == nil)
            #expect(cache.cached(tenant: tenant, .customer("c3", purchases: false)) == nil)

            let small = HoldingsCache(HoldingsCache.Settings(entries: 100, bytes: 600), ttl: .seconds(60), coherence: capabilities.coherence)
            for n in 1...5 { small.remember(holdings(n), tenant: tenant, .customer("c\(n)", purchases: false), loadedSince: small.loadStarts()) }
            #expect(small.usage.bytes <= 600)
            #expect(small.usage.entries == 2)
        }
    }

    /// A load that overlaps an invalidation of its customer is returned but not remembered; one of another
    /// customer does not stop it.
    @Test func aLoadOverlappingAnInvalidationIsNotRemembered() async throws {
        try await TestDatabase.with { capabilities, _ in
            let cache = HoldingsCache(HoldingsCache.Settings(), ttl: .seconds(60), coherence: capabilities.coherence)
            let (tenant, customer) = (UUID(), UUID())
            let holdings = Holdings(customer: customer, subscriptions: [], purchases: [])
            var since = cache.loadStarts()
            cache.forget(customer: customer, tenant: tenant)
            cache.remember(holdings, tenant: tenant, .customer("c", purchases: false), loadedSince: since)
            #expect(cache.cached(tenant: tenant, .customer("c", purchases: false)) == nil)

            since = cache.loadStarts()
            cache.forget(customer: UUID(), tenant: tenant)
            cache.remember(holdings, tenant: tenant, .customer("c", purchases: false), loadedSince: since)
            #expect(cache.cached(tenant: tenant, .customer("c", purchases: false)) != nil)
            cache.forget(customer: customer, tenant: tenant)
            #expect(cache.cached(tenant: tenant, .customer("c", purchases: false)) == nil, "dropped when its customer changes")
        }
    }
}
