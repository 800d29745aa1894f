import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// A pool of connections to the primary, as a succession of generations: each a `PostgresClient`, run
/// from its start until it is replaced and none of its units is left, then closed. A new generation
/// takes the current one's place when the primary moved to another node (`DatabaseNodes`, after a
/// failover) and, for a tenant pool (`renewal`), once its connections met enough tenants or lived long
/// enough (see `TenantPools`). Units that hold a connection of the old generation finish on it (or fail
/// with it); new units get the new one.
///
/// The control client (made from the URL) also runs the search for the primary that every client of
/// the process shares; run it (it is a `Service`) for as long as units may ask for connections.
public final class DatabaseClient: Service, Sendable {
    /// When a tenant pool's connections are replaced though the primary did not move.
    struct Renewal: Sendable {
        var tenantsPerGeneration: Int
        var lifetime: Duration
    }

    let nodes: DatabaseNodes
    private let maximumConnections: Int
    private let renewal: Renewal?
    /// Whether `run` also runs the search for the primary (the control client's, once per process).
    private let runsNodes: Bool
    private let logger: Logger
    private let state: Mutex<State>
    /// New generations, for `run` to start.
    private let starts: AsyncStream<Generation>.Continuation
    private let startStream: AsyncStream<Generation>

    final class Generation: Sendable {
        let client: PostgresClient
        let epoch: Int
        let born = ContinuousClock.now
        /// Set as `run` starts the client: a lease asked for before would make PostgresClient warn.
        let running = Atomic(false)
        /// Finished once the generation was replaced and its last unit ended.
        let drained: AsyncStream<Void>
        let drain: AsyncStream<Void>.Continuation

        init(_ primary: DatabaseNodes.Primary, nodes: DatabaseNodes, maximumConnections: Int, logger: Logger) {
            var configuration = nodes.configuration.client(for: primary.node, maximumConnections: maximumConnections)
            configuration.options.minimumConnections = 0
            client = PostgresClient(configuration: configuration, backgroundLogger: logger)
            epoch = primary.epoch
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

    /// The control client of the database `configuration` names, with the URL's maximum of connections.
    public convenience init(configuration: DatabaseConfiguration, backgroundLogger: Logger) {
        self.init(
            nodes: DatabaseNodes(configuration: configuration, logger: backgroundLogger), maximumConnections: configuration.maximumConnections,
            renewal: nil, runsNodes: true, logger: backgroundLogger)
    }

    init(nodes: DatabaseNodes, maximumConnections: Int, renewal: Renewal?, runsNodes: Bool, logger: Logger) {
        self.nodes = nodes
        self.maximumConnections = max(1, maximumConnections)
        self.renewal = renewal
        self.runsNodes = runsNodes
        self.logger = logger
        let first = Generation(nodes.primary, nodes: nodes, maximumConnections: self.maximumConnections, logger: logger)
        self.state = Mutex(State(current: first))
        (startStream, starts) = AsyncStream<Generation>.makeStream()
        starts.yield(first)
    }

    /// Another client of the same nodes (a tenant pool), renewed as `renewal` says.
    func sibling(maximumConnections: Int, renewal: Renewal?) -> DatabaseClient {
        DatabaseClient(nodes: nodes, maximumConnections: maximumConnections, renewal: renewal, runsNodes: false, logger: logger)
    }

    /// How many generations it has started (the first counts).
    var started: Int { state.withLock { $0.number } }

    /// Whether the current generation has a unit on each of its connections.
    var isFull: Bool { state.withLock { $0.units[ObjectIdentifier($0.current), default: 0] >= maximumConnections } }

    /// Runs `body` with a connection to the primary.
    public func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await withConnection(tenant: nil, body)
    }

    /// The same, for a unit of `tenant` (counted towards a tenant pool's renewal). Work that fails as if
    /// the database were away makes the nodes look for the primary again.
    func withConnection<T: Sendable>(tenant: UUID?, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        let generation = enter(tenant, primary: try await nodes.located())
        defer { leave(generation) }
        // A generation is started by `run`'s task a moment after it was made (the first, as the process starts).
        while !generation.running.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
        do {
            return try await generation.client.withConnection(body)
        } catch {
            if DatabaseUnavailable.reason(error) != nil { nodes.suspect() }
            throw error
        }
    }

    /// Runs `body` in one transaction; the error thrown inside (or by BEGIN or COMMIT) is rethrown as itself.
    public func transaction<T: Sendable>(logger: Logger, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await withConnection { conn in try await conn.transaction(logger: logger, closedUnderIt: { false }) { try await body(conn) } }
    }

    /// The generation for a unit: the current one, unless the primary moved, or (for a tenant pool) it
    /// has met enough tenants (this one new among them) or lived long enough; then a new one takes its place.
    private func enter(_ tenant: UUID?, primary: DatabaseNodes.Primary) -> Generation {
        state.withLock { state in
            var stale = state.current.epoch != primary.epoch
            if let renewal {
                let full = tenant.map { !state.tenants.contains($0) && state.tenants.count >= renewal.tenantsPerGeneration } ?? false
                stale = stale || full || state.current.born.duration(to: .now) >= renewal.lifetime
            }
            if stale {
                let old = ObjectIdentifier(state.current)
                state.replaced.insert(old)
                if state.units[old, default: 0] == 0 { finish(state.current, in: &state) }
                state.current = Generation(primary, nodes: nodes, maximumConnections: maximumConnections, logger: logger)
                state.number += 1
                state.tenants = []
                starts.yield(state.current)
            }
            if let tenant { state.tenants.insert(tenant) }
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

    /// Until cancelled or, as a service, shut down (as `PostgresClient.run` is): runs each generation's
    /// client from its start until it has drained, and (the control client) the search for the primary.
    public func run() async {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                if self.runsNodes { group.addTask { await self.nodes.run() } }
                for await generation in self.startStream {
                    group.addTask {
                        await withDiscardingTaskGroup { inner in
                            inner.addTask {
                                generation.running.store(true, ordering: .releasing)
                                await generation.client.run()
                            }
                            for await _ in generation.drained {}
                            inner.cancelAll()
                        }
                    }
                }
            }
        }
    }
}
