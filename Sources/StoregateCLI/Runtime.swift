import AppStoreServer
import ArgumentParser
import Foundation
import KeyVault
import Logging
import NIOCore
import PostgresNIO
import Storegate
import StoregatePostgres
import StoregateServer
import X509

/// Builds the services from the environment, runs the database client around `body`, and turns
/// domain errors into one clear line on stderr and exit code 1.
enum Runtime {
    static let environment = ProcessInfo.processInfo.environment
    static var publicURL: String { environment["STOREGATE_PUBLIC_URL"] ?? "http://127.0.0.1:8080" }
    /// How long a claimed job stays claimed unless renewed (`STOREGATE_JOB_LEASE_SECONDS`, default 10):
    /// after a process dies, its jobs run again elsewhere after this (a delivery in flight after 15 s at least).
    static var jobLease: Duration { .seconds(Int(environment["STOREGATE_JOB_LEASE_SECONDS"] ?? "") ?? 10) }

    static func bootstrapLogging() {
        let level = environment["STOREGATE_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = JSONLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
    }

    static func vault() -> KeyVault {
        do {
            return KeyVault(ring: try MasterKeyRing.fromEnvironment(environment))
        } catch {
            return KeyVault(unavailable: error)
        }
    }

    static func databaseConfiguration(maximumConnections: Int) throws(DatabaseError) -> DatabaseConfiguration {
        try DatabaseConfiguration(url: environment["STOREGATE_DATABASE_URL"] ?? DatabaseConfiguration.defaultURL, maximumConnections: maximumConnections)
    }

    /// The composition root: the domain's services over PostgreSQL, as configured by the environment.
    static func makeCapabilities(
        logger: Logger, database config: DatabaseConfiguration, trust: (roots: [Certificate], allowUnsignedEnvironments: Bool)? = nil,
        ocsp: (any OCSPTransport)? = nil, webhooks: WebhookSettings = WebhookSettings(), holdingsCache: HoldingsCache.Settings = HoldingsCache.Settings(),
        tenantPools: TenantPools.Settings = TenantPools.Settings(), reconciliation: ReconciliationSettings = ReconciliationSettings(),
        dataRetention: DataRetentionSettings = DataRetentionSettings()
    ) throws -> (Capabilities, PostgresPersistence) {
        var clientLogger = logger
        clientLogger.logLevel = .warning
        let client = DatabaseClient(configuration: config, backgroundLogger: clientLogger)
        let postgres = PostgresPersistence(client: client, tenantPools: TenantPools(client: client, settings: tenantPools), logger: logger)
        let capabilities = try Capabilities(
            persistence: postgres, vault: vault(), logger: logger, trust: trust,
            appStoreURL: environment["STOREGATE_APP_STORE_URL"].flatMap { $0.isEmpty ? nil : $0 }, ocsp: ocsp, webhooks: webhooks,
            holdingsCache: holdingsCache, reconciliation: reconciliation, dataRetention: dataRetention)
        return (capabilities, postgres)
    }

    /// Runs `body` with services whose database client runs for exactly that long.
    static func run<T: Sendable>(maximumConnections: Int = 10, _ body: @escaping @Sendable (Capabilities) async throws -> T) async throws -> T {
        try await run(maximumConnections: maximumConnections) { capabilities, _ in try await body(capabilities) }
    }

    /// Runs `body` with the services and the PostgreSQL they use (for migrations). An unreachable
    /// database fails within seconds, naming where it is and PostgreSQL's reason.
    static func run<T: Sendable>(
        maximumConnections: Int = 10, _ body: @escaping @Sendable (Capabilities, PostgresPersistence) async throws -> T
    ) async throws -> T {
        bootstrapLogging()
        var logger = Logger(label: "storegate")
        logger.logLevel = .warning
        var location = "STOREGATE_DATABASE_URL"
        do {
            let config = try databaseConfiguration(maximumConnections: maximumConnections)
            location = config.location
            try await config.check(logger: logger)
            let (capabilities, postgres) = try makeCapabilities(logger: logger, database: config)
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    await postgres.client.run()
                    return nil
                }
                group.addTask { try await body(capabilities, postgres) }
                defer { group.cancelAll() }
                while let result = try await group.next() {
                    if let result { return result }
                }
                throw CleanExit.message("database client stopped")
            }
        } catch StoregateError.unavailable(let reason) {
            throw fail("cannot reach PostgreSQL at \(location): \(reason)")
        } catch let error as StoregateError {
            throw fail(error.description)
        } catch let error as KeyVaultError {
            throw fail(error.description)
        } catch let error as DatabaseError {
            throw fail(error.description)
        } catch let error as StatementFailed {
            if error.code == .undefinedTable || error.code == .invalidSchemaName {
                throw fail("the database is not migrated: run `storegate migrate`")
            }
            throw fail("database error: \(error.message)")
        } catch let error as PSQLError {
            if error.serverCode == .undefinedTable || error.serverCode == .invalidSchemaName {
                throw fail("the database is not migrated: run `storegate migrate`")
            }
            if let reason = DatabaseUnavailable.reason(error) { throw fail("cannot reach PostgreSQL at \(location): \(reason)") }
            throw fail("database error: \(error.reason)")
        }
    }

    /// Runs a server's life, saying in one line when its address cannot be had.
    static func listening(host: String, port: Int, what: String, _ run: () async throws -> Void) async throws {
        do {
            try await run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw fail("\(what) cannot listen on \(host):\(port): the port is in use (stop what listens there, or choose another with --port)")
        } catch let error as IOError where error.errnoCode == EACCES || error.errnoCode == EADDRNOTAVAIL {
            throw fail("\(what) cannot listen on \(host):\(port): \(String(cString: strerror(error.errnoCode)))")
        }
    }

    static func fail(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("storegate: error: \(message)\n".utf8))
        return ExitCode.failure
    }
}

/// `--tenant <slug>` for commands that act inside one tenant.
struct TenantOption: ParsableArguments {
    @Option(name: .long, help: "The tenant's slug.")
    var tenant: String
}

extension TenantOption {
    /// Runs `body` with the services and the tenant this option names (a command's usual first step).
    func run<T: Sendable>(_ body: @escaping @Sendable (Capabilities, Tenant) async throws -> T) async throws -> T {
        let slug = tenant
        return try await Runtime.run { capabilities in try await body(capabilities, try await capabilities.tenants.get(slug: slug)) }
    }
}

extension TenantOption {
    /// Lists what `load` finds in the tenant, a line each (fields tab-separated), or `none` when nothing.
    func list<T: Sendable>(
        none: String, _ load: @escaping @Sendable (Capabilities, Tenant) async throws -> [T], line: (T) -> [String]
    ) async throws {
        Runtime.printLines(try await run(load), none: none, line: line)
    }
}

extension Runtime {
    /// One line per item, its fields tab-separated; `none` when there are no items.
    static func printLines<T>(_ items: [T], none: String, line: (T) -> [String]) {
        for item in items { print(line(item).joined(separator: "\t")) }
        if items.isEmpty { print(none) }
    }
}
