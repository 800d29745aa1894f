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
    private let pools: [Pool]
    /// Where tenants' schemas are created and dropped: DDL fills a backend's catalog cache with every
    /// schema it creates (10,000 tenants created on the control pool left a backend of 175 MB), so it
    /// runs on connections of its own (two: onboarding creates tenants side by side, and on one connection
    /// 10,000 took 1,030 s against 807 s on four), replaced after `schemaChangesPerGeneration` units.
    private let schemaChanges: Pool?
    static let schemaChangesPerGeneration = 100

    /// Pools of `configuration`'s database, each with `settings.connectionsEach` connections.
    public init(configuration: PostgresClient.Configuration, settings: Settings, backgroundLogger: Logger) {
        var configuration = configuration
        configuration.options.maximumConnections = max(1, settings.connectionsEach)
        configuration.options.minimumConnections = 0
        self.settings = settings
        self.pools = (0..<max(0, settings.count)).map { _ in Pool(configuration: configuration, settings: settings, logger: backgroundLogger) }
        configuration.options.maximumConnections = 2
        var schemaSettings = settings
        schemaSettings.connectionsEach = 2
        schemaSettings.tenantsPerGeneration = Self.schemaChangesPerGeneration
        self.schemaChanges = pools.isEmpty ? nil : Pool(configuration: configuration, settings: schemaSettings, logger: backgroundLogger)
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

extension TenantPools {
    /// One pool, as a succession of generations: each a PostgresClient, run from its start until it is
    /// replaced and none of its units is left.
    final class Pool: Sendable {
        private let configuration: PostgresClient.Configuration
        private let settings: Settings
        private let logger: Logger
        private let state: Mutex<State>
        /// New generations, for `run` to start.
        private let starts: AsyncStream<Generation>.Continuation
        private let startStream: AsyncStream<Generation>

        final class Generation: Sendable {
            let client: PostgresClient
            let born = ContinuousClock.now
            /// Finished once the generation was replaced and its last unit ended.
            let drained: AsyncStream<Void>
            let drain: AsyncStream<Void>.Continuation
            init(client: PostgresClient) {
                self.client = client
                (drained, drain) = AsyncStream<Void>.makeStream()
            }
        }

        private struct State {
            var current: Generation
            var number = 1
            var tenants: Set<UUID> = []
            /// Units running, by generation.
            var units: [ObjectIdentifier: Int] = [:]
            var replaced: Set<ObjectIdentifier> = []
        }

        init(configuration: PostgresClient.Configuration, settings: Settings, logger: Logger) {
            self.configuration = configuration
            self.settings = settings
            self.logger = logger
            let first = Generation(client: PostgresClient(configuration: configuration, backgroundLogger: logger))
            self.state = Mutex(State(current: first))
            (startStream, starts) = AsyncStream<Generation>.makeStream()
            starts.yield(first)
        }

        var started: Int { state.withLock { $0.number } }

        /// Whether the current generation has a unit on each of its connections.
        var isFull: Bool { state.withLock { $0.units[ObjectIdentifier($0.current), default: 0] >= settings.connectionsEach } }

        func withConnection<T: Sendable>(tenant: UUID, _ body: (PostgresConnection) async throws -> T) async throws -> T {
            let generation = enter(tenant)
            defer { leave(generation) }
            return try await generation.client.withConnection(body)
        }

        /// The generation for a unit of `tenant`: the current one, unless it has met enough tenants (this one
        /// new among them) or lived long enough, when a new one takes its place.
        private func enter(_ tenant: UUID) -> Generation {
            state.withLock { state in
                let full = !state.tenants.contains(tenant) && state.tenants.count >= settings.tenantsPerGeneration
                if full || state.current.born.duration(to: .now) >= settings.lifetime {
                    let old = ObjectIdentifier(state.current)
                    state.replaced.insert(old)
                    if state.units[old, default: 0] == 0 { finish(state.current, in: &state) }
                    state.current = Generation(client: PostgresClient(configuration: configuration, backgroundLogger: logger))
                    state.number += 1
                    state.tenants = []
                    starts.yield(state.current)
                }
                state.tenants.insert(tenant)
                state.units[ObjectIdentifier(state.current), default: 0] += 1
                return state.current
            }
        }

        private func leave(_ generation: Generation) {
            state.withLock { state in
                let id = ObjectIdentifier(generation)
                let left = state.units[id, default: 1] - 1
                state.units[id] = left
                if left == 0, state.replaced.contains(id) { finish(generation, in: &state) }
            }
        }

        private func finish(_ generation: Generation, in state: inout State) {
            let id = ObjectIdentifier(generation)
            state.units[id] = nil
            state.replaced.remove(id)
            generation.drain.finish()
        }

        /// Runs each generation's client from its start until it has drained; then its connections close.
        func run() async {
            await withDiscardingTaskGroup { group in
                for await generation in startStream {
                    group.addTask {
                        await withDiscardingTaskGroup { inner in
                            inner.addTask { await generation.client.run() }
                            for await _ in generation.drained {}
                            inner.cancelAll()
                        }
                    }
                }
            }
        }
    }
}
