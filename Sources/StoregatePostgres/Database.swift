import Foundation
import Logging
import PostgresNIO

/// Where the database is: parsed from a `postgres://user:password@host:port/database?sslmode=…` URL.
public struct DatabaseConfiguration: Sendable {
    public static let defaultURL = "postgres://storegate@127.0.0.1:54329/storegate?sslmode=disable"
    public var client: PostgresClient.Configuration

    public init(url: String, maximumConnections: Int = 10) throws(DatabaseError) {
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
        } else {
            let tls: PostgresClient.Configuration.TLS =
                switch query["sslmode"] ?? "prefer" {
                case "disable": .disable
                case "require", "verify-full": .require(.makeClientConfiguration())
                default: .prefer(.makeClientConfiguration())
                }
            config = .init(host: parts.host ?? "127.0.0.1", port: parts.port ?? 5432, username: user, password: parts.password, database: database, tls: tls)
        }
        config.options.maximumConnections = maximumConnections
        self.client = config
    }

    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(DatabaseError) -> DatabaseConfiguration {
        try DatabaseConfiguration(url: environment["STOREGATE_DATABASE_URL"] ?? defaultURL)
    }
}

public enum DatabaseError: Error, CustomStringConvertible {
    case invalidConfiguration(String)
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

extension PSQLError {
    /// The server's error code, such as `.uniqueViolation`.
    public var serverCode: PostgresError.Code? { serverInfo?[.sqlState].map(PostgresError.Code.init(raw:)) }
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
    /// Runs a statement and discards its rows.
    public func run(_ query: PostgresQuery, logger: Logger) async throws {
        let rows = try await self.query(query, logger: logger)
        for try await _ in rows {}
    }

    /// The first row decoded as `T`, or nil.
    public func first<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type, logger: Logger) async throws -> T? {
        for try await value in try await self.query(query, logger: logger).decode(T.self) { return value }
        return nil
    }

    /// The first column of every row.
    func column<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type, logger: Logger) async throws -> [T] {
        var out: [T] = []
        for try await value in try await self.query(query, logger: logger).decode(T.self) { out.append(value) }
        return out
    }

    /// Every row, each made into a value by `make`, which decodes the row's columns.
    func all<T>(_ query: PostgresQuery, logger: Logger, _ make: (PostgresRow) throws -> T) async throws -> [T] {
        var out: [T] = []
        for try await row in try await self.query(query, logger: logger) { out.append(try make(row)) }
        return out
    }
}
