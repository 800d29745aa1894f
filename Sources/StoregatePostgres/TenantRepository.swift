import Foundation
import Logging
import PostgresNIO

/// Tenants in the control schema.
public struct TenantRepository: Sendable {
    let logger: Logger
    public init(logger: Logger) { self.logger = logger }

    static let columns = "id, slug, name, schema_name, status, schema_version, created_at"

    public func insert(id: UUID, slug: String, name: String, schema: TenantSchema, schemaVersion: Int, on conn: PostgresConnection) async throws {
        try await conn.run(
            """
            INSERT INTO storegate.tenants (id, slug, name, schema_name, status, schema_version)
            VALUES (\(id), \(slug), \(name), \(schema.name), 'active', \(schemaVersion))
            """, logger: logger)
    }

    public func find(slug: String, on conn: PostgresConnection, forUpdate: Bool = false) async throws -> TenantRecord? {
        try await one("SELECT \(unescaped: Self.columns) FROM storegate.tenants WHERE slug = \(slug) \(unescaped: forUpdate ? "FOR UPDATE" : "")", on: conn)
    }

    public func find(id: UUID, on conn: PostgresConnection) async throws -> TenantRecord? {
        try await one("SELECT \(unescaped: Self.columns) FROM storegate.tenants WHERE id = \(id)", on: conn)
    }

    public func list(on conn: PostgresConnection) async throws -> [TenantRecord] {
        try await many("SELECT \(unescaped: Self.columns) FROM storegate.tenants ORDER BY slug", on: conn)
    }

    public func update(id: UUID, name: String, on conn: PostgresConnection) async throws {
        try await conn.run("UPDATE storegate.tenants SET name = \(name), updated_at = now() WHERE id = \(id)", logger: logger)
    }

    public func update(id: UUID, status: TenantStatus, on conn: PostgresConnection) async throws {
        try await conn.run("UPDATE storegate.tenants SET status = \(status.rawValue), updated_at = now() WHERE id = \(id)", logger: logger)
    }

    public func delete(id: UUID, on conn: PostgresConnection) async throws {
        try await conn.run("DELETE FROM storegate.tenants WHERE id = \(id)", logger: logger)
    }

    func one(_ query: PostgresQuery, on conn: PostgresConnection) async throws -> TenantRecord? {
        try await many(query, on: conn).first
    }

    func many(_ query: PostgresQuery, on conn: PostgresConnection) async throws -> [TenantRecord] {
        var out: [TenantRecord] = []
        let rows = try await conn.query(query, logger: logger)
        for try await (id, slug, name, schema, status, version, created) in rows.decode((UUID, String, String, String, String, Int, Date).self) {
            out.append(
                TenantRecord(
                    id: id, slug: slug, name: name, schema: try TenantSchema(validating: schema), status: TenantStatus(rawValue: status) ?? .suspended,
                    schemaVersion: version, createdAt: created))
        }
        return out
    }
}
