import Foundation
import KeyVault
import Logging
import PostgresNIO
import Storegate
import StoregatePostgres
import StoregateServer
import Synchronization
import X509

/// A fresh PostgreSQL database per test: created on the local cluster (`deploy/local/postgres.sh`),
/// migrated, handed to the test with running services, and dropped afterwards.
enum TestDatabase {
    static let environment = ProcessInfo.processInfo.environment
    /// The maintenance database URL; the role must be allowed to create databases.
    static let adminURL = environment["STOREGATE_TEST_DATABASE_URL"] ?? "postgres://storegate@127.0.0.1:54329/postgres?sslmode=disable"

    static func url(database: String) -> String {
        var parts = URLComponents(string: adminURL)!
        parts.path = "/" + database
        return parts.string!
    }

    /// Tests send events to receivers on loopback, over http, and retry within a second or two.
    static let webhooks = WebhookSettings(
        urls: WebhookURLPolicy(allowPrivate: true),
        delivery: WebhookDeliveryPolicy(firstRetry: .milliseconds(300), maxDelay: .seconds(2), retryWindow: .seconds(60), runBudget: .seconds(5)),
        jobLease: .seconds(30))

    static func makeVault(_ keys: [String]? = nil) -> KeyVault {
        let keys = keys ?? [MasterKey.generate()]
        // Test keys are generated; a failure here is a broken test, reported by the throwing callers.
        guard let active = try? MasterKey(base64: keys[0]) else { return KeyVault(unavailable: "bad test key") }
        return KeyVault(ring: MasterKeyRing(active: active, previous: keys.dropFirst().compactMap { try? MasterKey(base64: $0) }))
    }

    /// Database deadlines for tests that are not about deadlines: the whole suite shares two cores and one
    /// PostgreSQL, so a unit that takes milliseconds alone can wait seconds for a CPU. Production's limits
    /// (`DatabaseDeadlines()`) are what `DatabaseFaultTests` and `FailoverTests` check, each with its own.
    static let deadlines = DatabaseDeadlines(checkout: .seconds(15), unit: .seconds(30), readiness: .seconds(5))

    /// Reconciliation as tests run it: no scheduled sweeps unless a test asks (they call Apple), renewal
    /// checks as in production.
    static let reconciliation = ReconciliationSettings(sweepEvery: nil)
    /// Retention answers are given up on after 10 s, not Apple's 400 ms: a debug build beside the parallel suite is slow.
    static let retention = RetentionRuleService.Settings(deadline: .seconds(10))

    /// Runs `body` against a new database with the control schema migrated.
    static func with<T: Sendable>(
        vault: KeyVault = makeVault(), logger: Logger = TestLog.logger("test"),
        authCacheTTL: Duration = .milliseconds(200), migrate: Bool = true, trust: (roots: [Certificate], allowUnsignedEnvironments: Bool)? = nil,
        appStoreURL: String? = nil,
        workerPollInterval: Duration = .milliseconds(50), webhooks: WebhookSettings = TestDatabase.webhooks,
        holdingsCache: HoldingsCache.Settings = HoldingsCache.Settings(), reconciliation: ReconciliationSettings = TestDatabase.reconciliation,
        retention: RetentionRuleService.Settings = TestDatabase.retention, dataRetention: DataRetentionSettings = DataRetentionSettings(),
        deadlines: DatabaseDeadlines = TestDatabase.deadlines,
        _ body: @Sendable (Capabilities, _ databaseURL: String) async throws -> T
    ) async throws -> T {
        let name = "sg_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        do {
            try await create(String(name))
        } catch let error as PSQLError {
            try? await drop(String(name))
            throw DetailedDatabaseError(description: "creating the test database: " + String(reflecting: error))
        }
        let url = url(database: String(name))
        do {
            let config = try DatabaseConfiguration(url: url, maximumConnections: 8)
            let client = DatabaseClient(configuration: config, backgroundLogger: logger)
            let postgres = PostgresPersistence(client: client, logger: logger, deadlines: deadlines)
            let capabilities = try Capabilities(
                persistence: postgres, vault: vault, logger: logger, authCacheTTL: authCacheTTL, trust: trust, appStoreURL: appStoreURL,
                workerPollInterval: workerPollInterval, webhooks: webhooks, holdingsCache: holdingsCache,
                reconciliation: reconciliation, retention: retention, dataRetention: dataRetention)
            let result = try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    await client.run()
                    return nil
                }
                defer { group.cancelAll() }
                if migrate { try await postgres.migrator.migrateControl() }
                return try await body(capabilities, url)
            }
            try await drop(String(name))
            return result
        } catch let error as PSQLError {
            try? await drop(String(name))
            throw DetailedDatabaseError(description: String(reflecting: error))
        } catch {
            try? await drop(String(name))
            throw error
        }
    }

    /// PostgresNIO hides a server error's detail from `description`; a failing test shows it.
    struct DetailedDatabaseError: Error, CustomStringConvertible {
        let description: String
    }

    /// Creates a test database: on the cluster, or on a Citus cluster (`deploy/local/citus test`) on its
    /// coordinator and workers at once, Citus in each, the workers added and schema-based sharding on;
    /// one database at a time (made at once, they wait on each other past the statement timeout, and
    /// Citus's connections between the nodes fail).
    private static func create(_ name: String) async throws {
        guard let citus = Citus.cluster else {
            return try await admin { conn, log in try await conn.run("CREATE DATABASE \(unescaped: "\"\(name)\"")", logger: log) }
        }
        try await citus.oneAtATime { try await makeOnCitus(name, citus) }
    }

    private static func makeOnCitus(_ name: String, _ citus: Citus) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for node in citus.nodes {
                group.addTask {
                    try await citus.superuser(node, database: "postgres") { conn, log in
                        try await conn.run("CREATE DATABASE \(unescaped: "\"\(name)\"") OWNER storegate", logger: log)
                    }
                    try await citus.superuser(node, database: name) { conn, log in try await conn.run("CREATE EXTENSION citus", logger: log) }
                }
            }
            try await group.waitForAll()
        }
        try await citus.superuser(citus.nodes[0], database: name) { conn, log in
            try await conn.run("SELECT citus_set_coordinator_host(\(citus.nodes[0].host), \(Int32(citus.nodes[0].port)))", logger: log)
            for worker in citus.nodes.dropFirst() { try await conn.run("SELECT citus_add_node(\(worker.host), \(Int32(worker.port)))", logger: log) }
            try await conn.run("ALTER DATABASE \(unescaped: "\"\(name)\"") SET citus.enable_schema_based_sharding TO on", logger: log)
        }
    }

    /// Drops a test database. `WITH (FORCE)` cannot end an autovacuum worker unless the role may signal
    /// backends (`deploy/local/postgres.sh` grants that); elsewhere the drop is retried until the worker is done.
    private static func drop(_ name: String) async throws {
        if let citus = Citus.cluster {
            for node in citus.nodes.reversed() {
                try await citus.superuser(node, database: "postgres") { conn, log in
                    try await conn.run("DROP DATABASE IF EXISTS \(unescaped: "\"\(name)\"") WITH (FORCE)", logger: log)
                }
            }
            return
        }
        for attempt in 1...20 {
            do {
                return try await admin { conn, log in try await conn.run("DROP DATABASE IF EXISTS \(unescaped: "\"\(name)\"") WITH (FORCE)", logger: log) }
            } catch let error as PSQLError where error.serverCode == .insufficientPrivilege && attempt < 20 {
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    /// Creating and dropping databases is given longer than the server's own 3-second connect and 10-second
    /// statement limits: at the suite's start some ninety tests create theirs at once, and on a machine
    /// whose CPUs the host shares, CI once saw twelve tests fail creating theirs within a second of each
    /// other (the error's detail was not shown then; it is now).
    private static func admin(_ body: @Sendable (PostgresConnection, Logger) async throws -> Void) async throws {
        let logger = TestLog.logger("test-admin")
        let config = try DatabaseConfiguration(url: adminURL, maximumConnections: 1, connectTimeout: .seconds(30), statementTimeout: .seconds(120))
        let client = DatabaseClient(configuration: config, backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await client.withConnection { conn in try await body(conn, logger) }
        }
    }
}

extension Capabilities {
    /// The PostgreSQL behind the test's services, for tests that look at what is stored.
    var postgres: PostgresPersistence {
        guard let postgres = persistence as? PostgresPersistence else { preconditionFailure("test capabilities run on PostgreSQL") }
        return postgres
    }

    /// The same services with another vault (master keys).
    func with(vault: KeyVault) throws -> Capabilities {
        try Capabilities(persistence: persistence, vault: vault, logger: postgres.logger, reconciliation: TestDatabase.reconciliation)
    }
}

/// Captures log lines, to prove what never appears in them.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var logger: Logger {
        var logger = Logger(label: "capture") { [self] label in
            var handler = JSONLogHandler(label: label) { line in self.append(line) }
            handler.logLevel = .trace
            return handler
        }
        logger.logLevel = .trace
        return logger
    }

    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var text: String { lines.withLock { $0.joined(separator: "\n") } }
}
