import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Where tenants' units of work get their connections. A tenant's statements name its schema, so each
/// tenant is new text to a backend: parsed, planned, and its tables' catalog loaded into the backend's
/// memory, which PostgreSQL keeps until the backend ends. A pool whose every connection meets every tenant
/// is therefore slow and large with many tenants. Here each tenant has a home, one of `count` small pools
/// chosen from its id, so a backend meets 1/`count` of the tenants and keeps their statements prepared
/// (and, only while its home is full, the next pool's: see `withConnection`).
///
/// A pool's connections are replaced by fresh ones once they have met `tenantsPerGeneration` tenants or
/// lived `lifetime`: new units go to the new generation, the old one finishes its units and then closes, so
/// the backends' memory stays bounded whatever the number of tenants.
///
/// Runs (as a service) for as long as units may ask for connections. With no pools (`count` 0), tenants'
/// work shares the control client and `run` only waits to be cancelled.
public final class TenantPools: Service, Sendable {
    public struct Settings: Sendable {
        /// How many pools tenants are spread over; 0 puts their work on the control client.
        public var count: Int
        /// Connections in each pool, at most.
        public var connectionsEach: Int
        /// A pool's connections are replaced after meeting this many tenants between them.
        public var tenantsPerGeneration: Int
        /// A pool's connections are replaced after this long.
        public var lifetime: Duration

        public init(count: Int = 0, connectionsEach: Int = 4, tenantsPerGeneration: Int = 250, lifetime: Duration = .seconds(3_600)) {
            self.count = count
            self.connectionsEach = connectionsEach
            self.tenantsPerGeneration = tenantsPerGeneration
            self.lifetime = lifetime
        }
    }

    public let settings: Settings
    private let pools: [DatabaseClient]
    /// Where tenants' schemas are created and dropped: DDL fills a backend's catalog cache with every
    /// schema it creates (10,000 tenants created on the control pool left a backend of 175 MB), so it
    /// runs on connections of its own (two: onboarding creates tenants side by side, and on one connection
    /// 10,000 took 1,030 s against 807 s on four), replaced after `schemaChangesPerGeneration` units.
    private let schemaChanges: DatabaseClient?
    static let schemaChangesPerGeneration = 100

    /// Pools of the database `client` connects to (and of whichever node is its primary), each with
    /// `settings.connectionsEach` connections.
    public init(client: DatabaseClient, settings: Settings) {
        self.settings = settings
        let renewal = DatabaseClient.Renewal(tenantsPerGeneration: settings.tenantsPerGeneration, lifetime: settings.lifetime)
        self.pools = (0..<max(0, settings.count)).map { _ in client.sibling(maximumConnections: settings.connectionsEach, renewal: renewal) }
        let schemaRenewal = DatabaseClient.Renewal(tenantsPerGeneration: Self.schemaChangesPerGeneration, lifetime: settings.lifetime)
        self.schemaChanges = pools.isEmpty ? nil : client.sibling(maximumConnections: 2, renewal: schemaRenewal)
    }

    var isEmpty: Bool { pools.isEmpty }

    /// Runs `body` with a connection of `tenant`'s pool (there must be pools); when every connection of
    /// that pool is in use and the next pool has one free, with one of the next pool's, so that a busy
    /// tenant (a burst of notifications) is not held to one pool's connections while another waits idle.
    func withConnection<T: Sendable>(tenant: UUID, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        let home = Self.home(of: tenant, among: pools.count)
        let next = (home + 1) % pools.count
        let pool = pools[home].isFull && !pools[next].isFull ? pools[next] : pools[home]
        return try await pool.withConnection(tenant: tenant, body)
    }

    /// Runs `body` with a schema changes' connection (there must be pools).
    func withSchemaChangeConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        // Each unit counts as a tenant met: it may create one.
        try await schemaChanges!.withConnection(tenant: UUID(), body)
    }

    /// The pool a tenant always uses: from its id (random), so tenants spread evenly.
    static func home(of tenant: UUID, among count: Int) -> Int {
        let bytes = tenant.uuid
        let value = UInt32(bytes.12) << 24 | UInt32(bytes.13) << 16 | UInt32(bytes.14) << 8 | UInt32(bytes.15)
        return Int(value % UInt32(count))
    }

    /// How many generations each pool has started (the first counts), for tests and metrics; the schema
    /// changes' pool last.
    public var generations: [Int] { (pools + [schemaChanges].compactMap { $0 }).map(\.started) }

    /// Until cancelled or, as a service, shut down (as `PostgresClient.run` is).
    public func run() async {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                for pool in self.pools + [self.schemaChanges].compactMap({ $0 }) { group.addTask { await pool.run() } }
                if self.pools.isEmpty {
                    group.addTask { while !Task.isCancelled { try? await Task.sleep(for: .seconds(3_600)) } }
                }
            }
        }
    }
}
