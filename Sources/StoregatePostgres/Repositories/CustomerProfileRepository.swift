import Foundation
import PostgresNIO
import Storegate

/// Customers' attributes and notes in the tenant's schema (tenant migration 26).
struct CustomerProfileRepository: CustomerProfileStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    func attributes(customer: UUID) async throws -> (values: [String: String], updatedAt: Date?) {
        let rows = try await scope.all(
            "SELECT key, value, updated_at FROM \(unescaped: schema).customer_attributes WHERE customer = \(customer)"
        ) { try $0.decode((String, String, Date).self) }
        return (Dictionary(rows.map { ($0.0, $0.1) }, uniquingKeysWith: { $1 }), rows.map(\.2).max())
    }

    func lock(customer: UUID) async throws {
        try await scope.run("SELECT 1 FROM \(unescaped: schema).customers WHERE id = \(customer) FOR UPDATE")
    }

    /// One statement: the removed keys deleted, the set ones upserted.
    func change(customer: UUID, set: [String: String], remove: [String]) async throws {
        let keys = Array(set.keys)
        try await scope.run(
            """
            WITH removed AS (
                DELETE FROM \(unescaped: schema).customer_attributes WHERE customer = \(customer) AND key = ANY(\(remove)::text[])
            )
            INSERT INTO \(unescaped: schema).customer_attributes (customer, key, value)
            SELECT \(customer), k, v FROM unnest(\(keys)::text[], \(keys.map { set[$0] ?? "" })::text[]) AS a(k, v)
            ON CONFLICT (customer, key) DO UPDATE SET value = excluded.value, updated_at = now()
            """)
    }

    func add(note: UUID, customer: UUID, author: String, text: String) async throws -> Date {
        try await scope.first(
            """
            INSERT INTO \(unescaped: schema).customer_notes (id, customer, author, text) VALUES (\(note), \(customer), \(author), \(text))
            RETURNING created_at
            """, as: Date.self) ?? Date()
    }

    func notes(customer: UUID, before: UUID?, limit: Int) async throws -> [(id: UUID, author: String, text: String, createdAt: Date)] {
        try await scope.all(
            """
            SELECT n.id, n.author, n.text, n.created_at FROM \(unescaped: schema).customer_notes n
            WHERE n.customer = \(customer)
              AND (\(before)::uuid IS NULL
                   OR (n.created_at, n.id) < (SELECT b.created_at, b.id FROM \(unescaped: schema).customer_notes b WHERE b.id = \(before)))
            ORDER BY n.created_at DESC, n.id DESC LIMIT \(limit)
            """
        ) { row in
            let r = try row.decode((UUID, String, String, Date).self)
            return (r.0, r.1, r.2, r.3)
        }
    }

    func delete(note: UUID, customer: UUID) async throws -> Bool {
        try await scope.first(
            "DELETE FROM \(unescaped: schema).customer_notes WHERE id = \(note) AND customer = \(customer) RETURNING 1", as: Int32.self) != nil
    }
}

extension PostgresTenantUnit {
    var customerProfiles: any CustomerProfileStore { CustomerProfileRepository(scope: scope) }
}
