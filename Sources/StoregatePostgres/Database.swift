import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Where the database is: parsed from a `postgres://user:password@host:port/database?sslmode=…` URL.
public struct DatabaseConfiguration: Sendable {
    public static let defaultURL = "postgres://storegate@127.0.0.1:54329/storegate?sslmode=disable"
    public var client: PostgresClient.Configuration
    /// The same settings for one connection outside the pool, as `check` opens.
    var connection: PostgresConnection.Configuration
    /// Where it is, for messages: `host:port/database` (no user, no password).
    public let location: String

    /// Each connection starts with `statement_timeout` and `idle_in_transaction_session_timeout` set, so
    /// the server ends work its client gave up on; migrations lift the statement timeout for themselves.
    public init(
        url: String, maximumConnections: Int = 10, connectTimeout: Duration = .seconds(3), statementTimeout: Duration = .seconds(10)
    ) throws(DatabaseError) {
        guard let parts = URLComponents(string: url), ["postgres", "postgresql"].contains(parts.scheme ?? ""),
            let user = parts.user, !user.isEmpty
        else {
            throw .invalidConfiguration("STOREGATE_DATABASE_URL must look like postgres://user:password@host:port/database")
        }
        let database = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        let query = Dictionary((parts.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        var config: PostgresClient.Configuration
        if let socket = query["host"], socket.hasPrefix("/") {
            config = .init(unixSocketPath: socket, username: user, password: parts.password, database: database)
            connection = .init(unixSocketPath: socket, username: user, password: parts.password, database: database)
            location = "\(socket)/\(database)"
        } else {
            let sslmode = query["sslmode"] ?? "prefer"
            let tls: PostgresClient.Configuration.TLS =
                switch sslmode {
                case "disable": .disable
                case "require", "verify-full": .require(.makeClientConfiguration())
                default: .prefer(.makeClientConfiguration())
                }
            let connectionTLS: PostgresConnection.Configuration.TLS =
                switch sslmode {
                case "disable": .disable
                case "require", "verify-full": try Self.tls(.require, .makeClientConfiguration())
                default: try Self.tls(.prefer, .makeClientConfiguration())
                }
            let host = parts.host ?? "127.0.0.1"
            let port = parts.port ?? 5432
            config = .init(host: host, port: port, username: user, password: parts.password, database: database, tls: tls)
            connection = .init(host: host, port: port, username: user, password: parts.password, database: database, tls: connectionTLS)
            location = "\(host):\(port)/\(database)"
        }
        config.options.maximumConnections = maximumConnections
        config.options.connectTimeout = connectTimeout
        let milliseconds = String(statementTimeout.components.seconds * 1000 + statementTimeout.components.attoseconds / 1_000_000_000_000_000)
        config.options.additionalStartupParameters = [
            ("statement_timeout", milliseconds), ("idle_in_transaction_session_timeout", milliseconds),
        ]
        connection.options.connectTimeout = .nanoseconds(connectTimeout.components.seconds * 1_000_000_000)
        self.client = config
    }

    private enum TLSMode { case require, prefer }

    private static func tls(_ mode: TLSMode, _ configuration: TLSConfiguration) throws(DatabaseError) -> PostgresConnection.Configuration.TLS {
        do {
            let context = try NIOSSLContext(configuration: configuration)
            return mode == .require ? .require(context) : .prefer(context)
        } catch {
            throw .invalidConfiguration("cannot set up TLS for PostgreSQL: \(error)")
        }
    }

    /// Opens one connection and closes it: fails within the connect timeout with where the database is
    /// and why it cannot be reached (PostgreSQL's own reason, such as `database "x" does not exist`).
    public func check(logger: Logger) async throws(DatabaseError) {
        do {
            let conn = try await PostgresConnection.connect(configuration: connection, id: 0, logger: logger)
            try? await conn.close()
        } catch {
            throw .unreachable(location: location, reason: (error as? PSQLError)?.reason ?? DatabaseUnavailable.describe(error))
        }
    }

    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(DatabaseError) -> DatabaseConfiguration {
        try DatabaseConfiguration(url: environment["STOREGATE_DATABASE_URL"] ?? defaultURL)
    }
}

public enum DatabaseError: Error, CustomStringConvertible {
    case invalidConfiguration(String)
    /// PostgreSQL at `location` (`host:port/database`) cannot be reached or refuses the connection.
    case unreachable(location: String, reason: String)
    case invalidSchemaName
    /// A migration already applied has different SQL than the one in this build.
    case migrationChecksumMismatch(schema: String, version: Int)
    case migrationsFailed([(schema: String, error: String)])
    /// A JSON column holds a value this build cannot read.
    case undecodable(column: String, reason: String)
    /// A stored row is not what this build expects (an unknown kind or status, a row missing after its insert).
    case unreadable(String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let reason): reason
        case .unreachable(let location, let reason): "cannot reach PostgreSQL at \(location): \(reason)"
        case .invalidSchemaName: "invalid tenant schema name"
        case .migrationChecksumMismatch(let schema, let version):
            "migration \(version) of \(schema) was applied with different SQL than this build has"
        case .migrationsFailed(let failures):
            "\(failures.count) schema(s) failed to migrate: " + failures.map { "\($0.schema): \($0.error)" }.joined(separator: "; ")
        case .undecodable(let column, let reason): "\(column) holds a value that cannot be read: \(reason)"
        case .unreadable(let reason): "unexpected stored data: \(reason)"
        }
    }
}

/// PostgreSQL refused a statement: its SQLSTATE and its own message, which names what failed (a type, a
/// column, a constraint) but never the statement's bound values. Job and notification errors record this,
/// so an operator can read why; `PSQLError`'s own description hides everything.
public struct StatementFailed: Error, CustomStringConvertible, Sendable {
    public let sqlState: String
    public let message: String

    init?(_ error: PSQLError) {
        guard error.code == .server, let state = error.serverInfo?[.sqlState] else { return nil }
        sqlState = state
        message = error.serverInfo?[.message] ?? ""
    }

    public var code: PostgresError.Code { PostgresError.Code(raw: sqlState) }
    public var description: String { "PostgreSQL refused a statement: SQLSTATE \(sqlState), \(message)" }
}

extension PSQLError {
    /// The server's error code, such as `.uniqueViolation`.
    public var serverCode: PostgresError.Code? { serverInfo?[.sqlState].map(PostgresError.Code.init(raw:)) }

    /// PostgreSQL's own words (`database "x" does not exist`), or the network's (`connection refused`).
    /// `PSQLError`'s description hides both so as not to leak data; neither holds a bound value.
    public var reason: String {
        if let message = serverInfo?[.message] { return message }
        if let underlying { return DatabaseUnavailable.describe(underlying) }
        return String(describing: code)
    }
}

/// Failures that mean the database is away, not that the request is wrong: it is down or restarting,
/// unreachable, refusing this role or database, out of connections, or too slow.
public enum DatabaseUnavailable {
    /// Why, when `error` is such a failure; nil for any other error.
    public static func reason(_ error: any Error) -> String? {
        if let error = error as? DeadlineExceeded { return error.description }
        if let error = error as? ConnectionLost { return error.description }
        if let error = error as? PSQLError {
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed, .sslUnsupported:
                return error.reason
            case .server:
                guard let state = error.serverInfo?[.sqlState] else { return nil }
                return state.hasPrefix("08") || unavailableStates.contains(state) ? error.reason : nil
            default:
                return nil
            }
        }
        // PostgresNIO's pool reports its own failures (a tripped circuit breaker, a pool shut down) with a type
        // from a module it does not promise to keep; its name is the stable part.
        if String(describing: type(of: error)) == "ConnectionPoolError" { return "the connection pool: \(error)" }
        return nil
    }

    /// admin, crash and startup shutdowns, too many connections, statement timeout, unknown role or database,
    /// failed authentication.
    static let unavailableStates: Set<String> = ["57P01", "57P02", "57P03", "53300", "57014", "28000", "28P01", "3D000"]

    /// A network error in a few words: `connection refused`, `timed out after 3 seconds`.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError { return error.reason }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        if let error = error as? ChannelError, case .connectTimeout(let limit) = error { return "no connection within \(limit)" }
        if let error = error as? NIOConnectionError {
            return error.connectionErrors.first.map { describe($0.error) } ?? error.dnsAAAAError.map(describe) ?? "cannot connect"
        }
        return String(describing: error)
    }
}

extension PostgresClient {
    /// Runs `body` in one transaction; the error thrown inside (or by BEGIN or COMMIT) is rethrown as itself.
    public func transaction<T: Sendable>(logger: Logger, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await withTransaction(logger: logger) { conn in try await body(conn) }
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.commitError ?? error.beginError ?? error
        }
    }
}

extension PostgresConnection {
    /// BEGIN, `body`, COMMIT; ROLLBACK when `body` throws. When `closedUnderIt` says the connection was
    /// closed while `body` ran (a deadline or a cancellation closed it), nothing more is sent: PostgreSQL
    /// rolls back a closed connection's transaction itself, and PostgresNIO can leave a statement sent on
    /// a closing connection unanswered forever. A ROLLBACK that fails closes the connection, so that it
    /// never goes back to the pool inside a transaction.
    func transaction<T>(
        logger: Logger, isolation: isolated (any Actor)? = #isolation, closedUnderIt: () -> Bool, _ body: () async throws -> T
    ) async throws -> T {
        try await run("BEGIN", logger: logger)
        let value: T
        do {
            value = try await body()
        } catch {
            if !closedUnderIt() && !isClosed {
                do {
                    try await run("ROLLBACK", logger: logger)
                } catch {
                    close().whenComplete { _ in }
                }
            }
            throw error
        }
        try await run("COMMIT", logger: logger)
        return value
    }

    /// Runs a statement and discards its rows.
    public func run(_ query: PostgresQuery, logger: Logger) async throws {
        try await statement {
            let rows = try await self.query(query, logger: logger)
            for try await _ in rows {}
        }
    }

    /// The first row decoded as `T`, or nil.
    public func first<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type, logger: Logger) async throws -> T? {
        try await statement {
            for try await value in try await self.query(query, logger: logger).decode(T.self) { return value }
            return nil
        }
    }

    /// The first column of every row.
    func column<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type, logger: Logger) async throws -> [T] {
        try await statement {
            var out: [T] = []
            for try await value in try await self.query(query, logger: logger).decode(T.self) { out.append(value) }
            return out
        }
    }

    /// Every row, each made into a value by `make`, which decodes the row's columns.
    func all<T>(_ query: PostgresQuery, logger: Logger, _ make: (PostgresRow) throws -> T) async throws -> [T] {
        try await statement {
            var out: [T] = []
            for try await row in try await self.query(query, logger: logger) { out.append(try make(row)) }
            return out
        }
    }

    /// Sends one statement: inside a unit of work, through its `HeldConnection`, which refuses to send
    /// once the unit was stopped.
    func statement<T>(isolation: isolated (any Actor)? = #isolation, _ send: () async throws -> T) async throws -> T {
        guard let held = HeldConnection.current else { return try await send() }
        return try await held.statement(send)
    }
}
