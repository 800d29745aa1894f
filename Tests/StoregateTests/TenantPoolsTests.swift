import Foundation
import Logging
import PostgresNIO
import Storegate
import Testing

@testable import StoregatePostgres

/// Tenants' work on pools of their own: each tenant's units on the few backends of its home pool, and a
/// pool's backends replaced once they have met enough tenants.
@Suite struct TenantPoolsTests {
    @Test func eachTenantsUnitsRunOnItsHomePoolAndOnlyTheNextWhenItIsFull() async throws {
        try await PooledPersistence.with(tenants: 8, settings: TenantPools.Settings(count: 2, connectionsEach: 2, tenantsPerGeneration: 100)) {
            postgres, tenants in
            var backends: [Int: Set<Int>] = [:]
            for tenant in tenants {
                // As many units at once as the pool has connections: all on the home pool.
                let seen = try await postgres.backends(of: tenant, units: 8, atOnce: 2)
                #expect(seen.count <= 2, "a tenant meets at most its pool's 2 connections")
                backends[TenantPools.home(of: tenant.id, among: 2), default: []].formUnion(seen)
            }
            #expect(backends.count == 2, "8 tenants spread over both pools")
            #expect(backends[0, default: []].isDisjoint(with: backends[1, default: []]), "the pools share no backend")
            #expect(backends.values.allSatisfy { $0.count <= 2 })
            // More at once than its pool has connections: the next pool takes the rest.
            let busy = try await postgres.backends(of: tenants[0], units: 12, atOnce: 12)
            #expect(busy.count > 2 && busy.isSubset(of: backends[0, default: []].union(backends[1, default: []])))
            #expect(postgres.pools.generations == [1, 1, 1])
        }
    }

    @Test func aPoolThatMetEnoughTenantsIsReplacedAndItsBackendsEndAfterTheirLastUnit() async throws {
        try await PooledPersistence.with(tenants: 3, settings: TenantPools.Settings(count: 1, connectionsEach: 2, tenantsPerGeneration: 2)) {
            postgres, tenants in
            let first = try await postgres.backends(of: tenants[0], units: 4).union(postgres.backends(of: tenants[1], units: 4))
            #expect(postgres.pools.generations == [1, 1])
            // A unit of the first generation is still running when the third tenant starts the second.
            let (running, started) = AsyncStream<Int>.makeStream()
            async let slow = postgres.persistence.inTenant(tenants[0], .read) { unit in
                let conn = (unit as! PostgresTenantUnit).conn
                let pid = try await conn.first("SELECT pg_backend_pid()", as: Int.self, logger: postgres.logger)
                started.yield(pid ?? -1)
                try await conn.run("SELECT pg_sleep(0.5)", logger: postgres.logger)
                return try await conn.first("SELECT pg_backend_pid()", as: Int.self, logger: postgres.logger)
            }
            var iterator = running.makeAsyncIterator()
            let slowBackend = await iterator.next()
            let second = try await postgres.backends(of: tenants[2], units: 4)
            #expect(postgres.pools.generations == [2, 1])
            #expect(second.isDisjoint(with: first), "the new generation has backends of its own")
            #expect(try await slow == slowBackend, "the unit in flight finished on its backend")
            #expect(first.contains(slowBackend ?? -1), "of the old generation")
            // The old generation's backends end once its last unit has.
            let deadline = ContinuousClock.now + .seconds(10)
            var alive = first
            while !alive.isEmpty, ContinuousClock.now < deadline {
                alive = try await postgres.alive(first)
                if !alive.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(alive.isEmpty, "the replaced backends closed")
            #expect(try await postgres.alive(second) == second, "the new generation's stay")
        }
    }

    @Test func schemaChangesRunOnConnectionsOfTheirOwnReplacedEveryHundred() async throws {
        try await TestDatabase.with { capabilities, url in
            let settings = TenantPools.Settings(count: 1, connectionsEach: 2, tenantsPerGeneration: 100)
            try await PooledPersistence.with(url: url, settings: settings) { postgres in
                let pooled = try Capabilities(
                    persistence: postgres.persistence, vault: TestDatabase.makeVault(), logger: postgres.logger, reconciliation: TestDatabase.reconciliation)
                let tenant = try await pooled.tenants.create(slug: "schema-change", name: "Schema change", actor: Actor("test"))
                let tenantBackends = try await postgres.backends(of: tenant, units: 4)
                let schemaBackend = try await postgres.persistence.withConnection(.schemaChange) { conn in
                    try await conn.first("SELECT pg_backend_pid()", as: Int.self, logger: postgres.logger)
                }
                let controlBackend = try await postgres.persistence.withConnection(.write) { conn in
                    try await conn.first("SELECT pg_backend_pid()", as: Int.self, logger: postgres.logger)
                }
                #expect(!tenantBackends.contains(schemaBackend ?? -1) && schemaBackend != controlBackend)
                for _ in 0..<TenantPools.schemaChangesPerGeneration {
                    try await postgres.persistence.withConnection(.schemaChange) { _ in }
                }
                #expect(postgres.pools.generations == [1, 2], "the schema changes' connections were replaced")
            }
        }
    }
}

/// A persistence whose tenants' work runs on tenant pools, with its clients running for `body`.
struct PooledPersistence {
    let persistence: PostgresPersistence
    let pools: TenantPools
    let logger = TestLog.logger("pooled")

    /// `count` tenants, created by a test database's services, and this persistence over the same database.
    static func with(
        tenants count: Int, settings: TenantPools.Settings, _ body: @Sendable (PooledPersistence, [Tenant]) async throws -> Void
    ) async throws {
        try await TestDatabase.with { capabilities, url in
            // At least `count`, and as many more as it takes for every pool to be some tenant's home (ids are
            // random: 8 tenants all homed on one of two pools happens once in 128 runs).
            var tenants: [Tenant] = []
            func homes() -> Int { Set(tenants.map { TenantPools.home(of: $0.id, among: settings.count) }).count }
            while tenants.count < count || homes() < min(settings.count, count) {
                tenants.append(try await capabilities.tenants.create(slug: "pooled-\(tenants.count)", name: "Pooled", actor: Actor("test")))
            }
            try await with(url: url, settings: settings) { [tenants] postgres in try await body(postgres, tenants) }
        }
    }

    static func with(url: String, settings: TenantPools.Settings, _ body: @Sendable (PooledPersistence) async throws -> Void) async throws {
        let logger = TestLog.logger("pooled")
        let config = try DatabaseConfiguration(url: url, maximumConnections: 2)
        let client = DatabaseClient(configuration: config, backgroundLogger: logger)
        let pools = TenantPools(client: client, settings: settings)
        // The test deadlines: these tests are about which pool a unit meets, not how fast a loaded machine connects.
        let persistence = PostgresPersistence(client: client, tenantPools: pools, logger: logger, deadlines: TestDatabase.deadlines)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            group.addTask { await pools.run() }
            defer { group.cancelAll() }
            try await body(PooledPersistence(persistence: persistence, pools: pools))
        }
    }

    /// The backends that `units` units of `tenant`, `atOnce` at a time, ran on.
    func backends(of tenant: Tenant, units: Int, atOnce: Int? = nil) async throws -> Set<Int> {
        try await withThrowingTaskGroup(of: Int?.self) { group in
            var seen: Set<Int> = []
            for i in 0..<units {
                if i >= atOnce ?? units, let pid = try await group.next() { pid.map { _ = seen.insert($0) } }
                group.addTask {
                    try await persistence.inTenant(tenant, .read) { unit in
                        try await (unit as! PostgresTenantUnit).conn.first(
                            "SELECT pg_backend_pid() FROM pg_sleep(0.05)", as: Int.self, logger: logger)
                    }
                }
            }
            for try await pid in group { if let pid { seen.insert(pid) } }
            return seen
        }
    }

    /// Which of `backends` are still running.
    func alive(_ backends: Set<Int>) async throws -> Set<Int> {
        let pids = Array(backends)
        return try await persistence.client.withConnection { conn in
            let rows = try await conn.query("SELECT pid FROM pg_stat_activity WHERE pid = ANY(\(pids))", logger: persistence.logger)
            var alive: Set<Int> = []
            for try await pid in rows.decode(Int.self) { alive.insert(pid) }
            return alive
        }
    }
}
