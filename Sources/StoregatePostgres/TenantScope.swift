import Foundation
import Logging
import PostgresNIO
import Storegate

/// What every tenant repository holds: the unit's connection, the tenant's id and its schema.
struct TenantScope: Sendable {
    let conn: PostgresConnection
    let logger: Logger
    let tenantId: UUID
    let schema: TenantSchema
    /// Whose holdings the unit changed.
    let changes: UnitChanges

    /// The quoted schema name, the one piece of SQL text that is not a bound parameter.
    var sql: String { schema.sql }

    func run(_ query: PostgresQuery) async throws { try await conn.run(query, logger: logger) }

    func first<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type) async throws -> T? {
        try await conn.first(query, as: type, logger: logger)
    }

    func column<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type) async throws -> [T] {
        try await conn.column(query, as: type, logger: logger)
    }

    func all<T>(_ query: PostgresQuery, _ make: (PostgresRow) throws -> T) async throws -> [T] {
        try await conn.all(query, logger: logger, make)
    }

    /// `all`, prepared on the connection once the text repeats there (the statements of hot paths).
    func prepared<T>(_ query: TypedQuery, _ make: (PostgresRow) throws -> T) async throws -> [T] {
        try await conn.prepared(query, logger: logger, make)
    }

    /// `run`, prepared once it repeats.
    func prepared(_ query: TypedQuery) async throws { _ = try await conn.prepared(query, logger: logger) { _ in () } }

    /// `first`, prepared once it repeats.
    func prepared<T: PostgresDecodable & Sendable>(_ query: TypedQuery, as type: T.Type) async throws -> T? {
        try await conn.prepared(query, logger: logger) { try $0.decode(T.self) }.first
    }
}
