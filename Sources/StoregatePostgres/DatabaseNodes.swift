import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The nodes the database URL names and which of them is the primary now. With one node there is nothing
/// to choose: a connection lost is simply opened again. With several (a primary and its standbys, as
/// pg_auto_failover keeps them), work fails as if the database were away when the primary fails or is
/// demoted; each such failure is a suspicion (`suspect`), and then every node is asked at once
/// (`pg_is_in_recovery()`) until one is writable. When that is another node, the primary's `epoch` moves
/// on, and every `DatabaseClient` replaces its connections with new ones to it.
final class DatabaseNodes: Sendable {
    struct Primary: Sendable, Equatable {
        let node: DatabaseConfiguration.Node
        /// Counts the moves: a client whose connections are of an earlier epoch replaces them.
        let epoch: Int
    }

    let configuration: DatabaseConfiguration
    let logger: Logger
    private let state: Mutex<Primary>
    /// Whether the primary was found once (with one node, from the start).
    private let found: Atomic<Bool>
    private let suspicions: AsyncStream<Void>
    private let suspicion: AsyncStream<Void>.Continuation
    /// How long between rounds of asking while no node is writable (a failover under way).
    static let retry = Duration.milliseconds(250)

    init(configuration: DatabaseConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        state = Mutex(Primary(node: configuration.nodes[0], epoch: 0))
        found = Atomic(configuration.nodes.count == 1)
        (suspicions, suspicion) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    var primary: Primary { state.withLock { $0 } }

    /// The primary, once it was found: with several nodes, the first unit waits for `run`'s first search
    /// (for as long as its deadline lets it), so that nothing is sent to a standby named first.
    func located() async throws -> Primary {
        while !found.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(5)) }
        return primary
    }

    /// Work failed as if the database were away: with several nodes, the primary is looked for again.
    func suspect() {
        guard configuration.nodes.count > 1 else { return }
        suspicion.yield()
    }

    /// Looks for the primary at the start and after each suspicion, until cancelled.
    func run() async {
        guard configuration.nodes.count > 1 else { return }
        await locate()
        for await _ in suspicions {
            if Task.isCancelled { return }
            await locate()
        }
    }

    /// Asks every node until one is writable (the current primary preferred when two say so); moves the
    /// primary there. Asks again every `retry` while none is.
    func locate() async {
        var rounds = 0
        while !Task.isCancelled {
            let current = primary
            let writable = await withTaskGroup(of: DatabaseConfiguration.Node?.self) { group in
                for node in configuration.nodes { group.addTask { await self.isWritable(node) ? node : nil } }
                var found: [DatabaseConfiguration.Node] = []
                for await node in group { if let node { found.append(node) } }
                return found
            }
            if let node = writable.contains(current.node) ? current.node : configuration.nodes.first(where: writable.contains) {
                if node != current.node {
                    let moved = state.withLock { state in
                        state = Primary(node: node, epoch: state.epoch + 1)
                        return state
                    }
                    logger.warning("database: the primary is now \(node)", metadata: ["epoch": "\(moved.epoch)", "after_rounds": "\(rounds + 1)"])
                }
                found.store(true, ordering: .releasing)
                return
            }
            rounds += 1
            if rounds == 1 {
                logger.warning("database: no node is writable; asking again every \(Self.retry)", metadata: ["nodes": "\(configuration.location)"])
            }
            try? await Task.sleep(for: Self.retry)
        }
    }

    /// Whether `node` answers and is not in recovery (a standby is).
    func isWritable(_ node: DatabaseConfiguration.Node) async -> Bool {
        guard let conn = try? await PostgresConnection.connect(configuration: try configuration.connection(for: node), id: 0, logger: logger) else {
            return false
        }
        var writable = false
        do {
            let rows = try await conn.query("SELECT pg_is_in_recovery()", logger: logger)
            for try await inRecovery in rows.decode(Bool.self) { writable = !inRecovery }
        } catch {
            writable = false
        }
        try? await conn.close()
        return writable
    }
}
