import Foundation
import Logging
import PostgresNIO
import StoregatePostgres

/// The Citus cluster the tests run on when `STOREGATE_TEST_CITUS` names its nodes (`host:port`, the
/// coordinator first, comma-separated; `deploy/local/citus test` sets it). Each test's database is made
/// on every node by the `postgres` superuser, which alone may create the extension; the services
/// connect as `storegate`, through the coordinator, as in production.
struct Citus: Sendable {
    struct Node: Sendable {
        let host: String
        let port: Int
    }

    let nodes: [Node]

    static let cluster: Citus? = TestDatabase.environment["STOREGATE_TEST_CITUS"].flatMap { list in
        let nodes = list.split(separator: ",").compactMap { entry -> Node? in
            guard let colon = entry.lastIndex(of: ":"), let port = Int(entry[entry.index(after: colon)...]) else { return nil }
            return Node(host: String(entry[..<colon]), port: port)
        }
        return nodes.count >= 2 ? Citus(nodes: nodes) : nil
    }

    /// Runs `body` after every earlier call's has finished.
    func oneAtATime(_ body: @Sendable () async throws -> Void) async throws {
        try await Self.turns.take(body)
    }

    private static let turns = Turns()

    private actor Turns {
        private var last: Task<Void, Never>?

        func take(_ body: @Sendable () async throws -> Void) async throws {
            let previous = last
            let (done, finish) = AsyncStream<Void>.makeStream()
            last = Task { for await _ in done {} }
            await previous?.value
            defer { finish.finish() }
            try await body()
        }
    }

    func superuser(_ node: Node, database: String, _ body: @Sendable (PostgresConnection, Logger) async throws -> Void) async throws {
        let logger = TestLog.logger("test-citus")
        let config = try DatabaseConfiguration(
            url: "postgres://postgres@\(node.host):\(node.port)/\(database)?sslmode=disable", maximumConnections: 1)
        let client = DatabaseClient(configuration: config, backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            do {
                try await client.withConnection { conn in try await body(conn, logger) }
            } catch let error as PSQLError {
                throw TestDatabase.DetailedDatabaseError(description: "on \(node.host):\(node.port)/\(database): " + String(reflecting: error))
            }
        }
    }
}
