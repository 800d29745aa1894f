import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Where the database is: parsed from a `postgres://user:password@host:port/database?sslmode=…` URL, or
/// libpq's form with several nodes, `postgres://user@host1:port1,host2:port2/database`: a primary and its
/// standbys, of which Storegate always uses the writable one (`DatabaseNodes`). `target_session_attrs` may
/// say `read-write` or `primary`, which is what Storegate does anyway; it writes, so other values are refused.
public struct DatabaseConfiguration: Sendable, CustomStringConvertible {
    public static let defaultURL = "postgres://storegate@127.0.0.1:54329/storegate?sslmode=disable"

    /// One node: a host and port, or a Unix socket's directory.
    public struct Node: Sendable, Hashable, CustomStringConvertible {
        public let host: String
        public let port: Int
        var isSocket: Bool { host.hasPrefix("/") }
        public var description: String { isSocket ? host : host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// The nodes, in the URL's order.
    public let nodes: [Node]
    let username: String
    let password: String?
    let database: String
    let sslmode: String
    let maximumConnections: Int
    let connectTimeout: Duration
    let statementTimeout: Duration
    /// Where it is, for messages: `host:port/database` (no user, no password), every node.
    public let location: String
    /// Never the password.
    public var description: String { "postgres://\(username)@\(location)" }

    /// Each connection starts with `statement_timeout` and `idle_in_transaction_session_timeout` set, so
    /// the server ends work its client gave up on; migrations lift the statement timeout for themselves.
    public init(
        url: String, maximumConnections: Int = 10, connectTimeout: Duration = .seconds(3), statementTimeout: Duration = .seconds(10)
    ) throws(DatabaseError) {
        let shape = "STOREGATE_DATABASE_URL must look like postgres://user:password@host:port/database (or host1:port1,host2:port2)"
        guard let schemeEnd = url.range(of: "://"), ["postgres", "postgresql"].contains(url[..<schemeEnd.lowerBound]) else {
            throw .invalidConfiguration(shape)
        }
        var rest = url[schemeEnd.upperBound...]
        let queryText = rest.firstIndex(of: "?").map { index -> Substring in
            defer { rest = rest[..<index] }
            return rest[rest.index(after: index)...]
        }
        let path = rest.firstIndex(of: "/").map { index -> Substring in
            defer { rest = rest[..<index] }
            return rest[rest.index(after: index)...]
        }
        guard let at = rest.lastIndex(of: "@") else { throw .invalidConfiguration(shape) }
        let userinfo = rest[..<at].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let hostList = rest[rest.index(after: at)...]
        guard let user = userinfo.first.flatMap({ String($0).removingPercentEncoding }), !user.isEmpty else { throw .invalidConfiguration(shape) }
        username = user
        password = userinfo.count == 2 ? String(userinfo[1]).removingPercentEncoding : nil
        database = path.flatMap { String($0).removingPercentEncoding } ?? ""
        var query: [String: String] = [:]
        for item in (queryText ?? "").split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            query[String(pair[0]).removingPercentEncoding ?? ""] = pair.count == 2 ? (String(pair[1]).removingPercentEncoding ?? "") : ""
        }
        if let attributes = query["target_session_attrs"], !["read-write", "primary", "any"].contains(attributes) {
            throw .invalidConfiguration("target_session_attrs=\(attributes): Storegate writes, so it always uses the writable node (read-write)")
        }
        if let socket = query["host"], socket.hasPrefix("/") {
            nodes = [Node(host: socket, port: 5432)]
        } else {
            var nodes: [Node] = []
            for item in hostList.split(separator: ",", omittingEmptySubsequences: false) where !hostList.isEmpty {
                guard !item.isEmpty, let node = Self.node(item) else { throw .invalidConfiguration(shape) }
                nodes.append(node)
            }
            self.nodes = nodes.isEmpty ? [Node(host: "127.0.0.1", port: 5432)] : nodes
        }
        sslmode = query["sslmode"] ?? "prefer"
        self.maximumConnections = maximumConnections
        self.connectTimeout = connectTimeout
        self.statementTimeout = statementTimeout
        location = nodes.map(\.description).joined(separator: ",") + "/" + database
    }

    /// `host`, `host:port`, `[v6]` or `[v6]:port`.
    private static func node(_ text: Substring) -> Node? {
        var host = text
        var port = 5432
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = text.lastIndex(of: ":") {
            guard let number = Int(text[text.index(after: colon)...]) else { return nil }
            host = text[..<colon]
            port = number
        }
        guard (1...65535).contains(port) else { return nil }
        guard !host.isEmpty else { return nil }
        return Node(host: String(host), port: port)
    }

    /// A pool's settings for `node`, with at most `maximumConnections` connections (the URL's when nil).
    public func client(for node: Node, maximumConnections: Int? = nil) -> PostgresClient.Configuration {
        var config: PostgresClient.Configuration
        if node.isSocket {
            config = .init(unixSocketPath: node.host, username: username, password: password, database: database)
        } else {
            let tls: PostgresClient.Configuration.TLS =
                switch sslmode {
                case "disable": .disable
                case "require", "verify-full": .require(.makeClientConfiguration())
                default: .prefer(.makeClientConfiguration())
                }
            config = .init(host: node.host, port: node.port, username: username, password: password, database: database, tls: tls)
        }
        config.options.maximumConnections = maximumConnections ?? self.maximumConnections
        config.options.connectTimeout = connectTimeout
        let milliseconds = String(statementTimeout.components.seconds * 1000 + statementTimeout.components.attoseconds / 1_000_000_000_000_000)
        config.options.additionalStartupParameters = [
            ("statement_timeout", milliseconds), ("idle_in_transaction_session_timeout", milliseconds),
        ]
        return config
    }

    /// One connection's settings for `node`, as `check` and `DatabaseNodes` open outside the pools.
    func connection(for node: Node) throws(DatabaseError) -> PostgresConnection.Configuration {
        var connection: PostgresConnection.Configuration
        if node.isSocket {
            connection = .init(unixSocketPath: node.host, username: username, password: password, database: database)
        } else {
            let tls: PostgresConnection.Configuration.TLS =
                switch sslmode {
                case "disable": .disable
                case "require", "verify-full": try Self.tls(.require, .makeClientConfiguration())
                default: try Self.tls(.prefer, .makeClientConfiguration())
                }
            connection = .init(host: node.host, port: node.port, username: username, password: password, database: database, tls: tls)
        }
        connection.options.connectTimeout = .nanoseconds(connectTimeout.components.seconds * 1_000_000_000)
        return connection
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

    /// Opens one connection to each node until one answers, and closes it: fails within the connect
    /// timeout with where the database is and why it cannot be reached (PostgreSQL's own reason, such as
    /// `database "x" does not exist`).
    public func check(logger: Logger) async throws(DatabaseError) {
        var reasons: [String] = []
        for node in nodes {
            do {
                let conn = try await PostgresConnection.connect(configuration: try connection(for: node), id: 0, logger: logger)
                try? await conn.close()
                return
            } catch {
                reasons.append((nodes.count > 1 ? "\(node): " : "") + ((error as? PSQLError)?.reason ?? DatabaseUnavailable.describe(error)))
            }
        }
        throw .unreachable(location: location, reason: reasons.joined(separator: "; "))
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
    /// failed authentication, and a write refused as read-only (the node is a standby now: after a failover).
    static let unavailableStates: Set<String> = ["57P01", "57P02", "57P03", "53300", "57014", "28000", "28P01", "3D000", "25006"]

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
            value = try await CommitConfirmation.$inTransaction.withValue(true) { try await body() }
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

    /// Runs a statement and discards its rows; a write outside a transaction has its commit confirmed
    /// unless `confirmingCommit` is false (a write that may be lost).
    public func run(_ query: PostgresQuery, logger: Logger, confirmingCommit: Bool = true) async throws {
        try await statement(query.sql, logger: logger, confirmingCommit: confirmingCommit) {
            let rows = try await self.query(query, logger: logger)
            for try await _ in rows {}
        }
    }

    /// The first row decoded as `T`, or nil.
    public func first<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type, logger: Logger) async throws -> T? {
        try await statement(query.sql, logger: logger) {
            for try await value in try await self.query(query, logger: logger).decode(T.self) { return value }
            return nil
        }
    }

    /// The first column of every row.
    func column<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type, logger: Logger) async throws -> [T] {
        try await statement(query.sql, logger: logger) {
            var out: [T] = []
            for try await value in try await self.query(query, logger: logger).decode(T.self) { out.append(value) }
            return out
        }
    }

    /// Every row, each made into a value by `make`, which decodes the row's columns.
    func all<T>(_ query: PostgresQuery, logger: Logger, _ make: (PostgresRow) throws -> T) async throws -> [T] {
        try await statement(query.sql, logger: logger) {
            var out: [T] = []
            for try await row in try await self.query(query, logger: logger) { out.append(try make(row)) }
            return out
        }
    }

    /// Sends one statement, of `sql`: inside a unit of work, through its `HeldConnection`, which refuses
    /// to send once the unit was stopped. A write outside a transaction returns once its commit is
    /// confirmed (`CommitConfirmation`).
    func statement<T>(
        _ sql: String, logger: Logger, confirmingCommit: Bool = true, isolation: isolated (any Actor)? = #isolation, _ send: () async throws -> T
    ) async throws -> T {
        let value: T
        if let held = HeldConnection.current { value = try await held.statement(send) } else { value = try await send() }
        if confirmingCommit && CommitConfirmation.needed(after: sql) { try await confirmCommitted(logger: logger) }
        return value
    }
}
