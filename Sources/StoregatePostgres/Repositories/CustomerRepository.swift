import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// Customers and their account links, in the tenant's schema.
struct CustomerRepository: CustomerStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    static let columns = "id, customer_id, app_account_token, created_at"

    func ensure(customerId: String) async throws -> (customer: Customer, created: Bool) {
        // One statement, so two first uses of the same id cannot both insert.
        let found = try await scope.all(
            """
            INSERT INTO \(unescaped: schema).customers (id, customer_id, app_account_token) VALUES (\(UUID()), \(customerId), \(UUID()))
            ON CONFLICT (customer_id) DO UPDATE SET customer_id = excluded.customer_id
            RETURNING \(unescaped: Self.columns), (xmax = 0)
            """
        ) { row in
            let r = try row.decode((UUID, String, UUID, Date, Bool).self)
            return (Customer(id: r.0, customerId: r.1, appAccountToken: r.2, createdAt: r.3), r.4)
        }
        guard let first = found.first else { throw DatabaseError.unreadable("INSERT … RETURNING returned no row") }
        return first
    }

    func find(id: UUID) async throws -> Customer? {
        try await customers("SELECT \(unescaped: Self.columns) FROM \(unescaped: schema).customers WHERE id = \(id)").first
    }

    func find(customerId: String) async throws -> Customer? {
        try await customers("SELECT \(unescaped: Self.columns) FROM \(unescaped: schema).customers WHERE customer_id = \(customerId)").first
    }

    func find(appAccountToken: UUID) async throws -> Customer? {
        try await customers("SELECT \(unescaped: Self.columns) FROM \(unescaped: schema).customers WHERE app_account_token = \(appAccountToken)").first
    }

    private func customers(_ query: PostgresQuery) async throws -> [Customer] {
        try await scope.all(query) { row in
            let r = try row.decode((UUID, String, UUID, Date).self)
            return Customer(id: r.0, customerId: r.1, appAccountToken: r.2, createdAt: r.3)
        }
    }

    func link(appId: UUID, kind: AccountLink.Kind, value: String) async throws -> AccountLink? {
        try await links(
            """
            SELECT app_id, kind, value, customer, linked_at FROM \(unescaped: schema).account_links
            WHERE app_id = \(appId) AND kind = \(kind.rawValue) AND value = \(value) FOR UPDATE
            """
        ).first
    }

    func links(customer: UUID) async throws -> [AccountLink] {
        try await links(
            "SELECT app_id, kind, value, customer, linked_at FROM \(unescaped: schema).account_links WHERE customer = \(customer) ORDER BY linked_at, kind, value"
        )
    }

    private func links(_ query: PostgresQuery) async throws -> [AccountLink] {
        try await scope.all(query) { row -> AccountLink in
            let r = try row.decode((UUID, String, String, UUID, Date).self)
            guard let kind = AccountLink.Kind(rawValue: r.1) else { throw DatabaseError.unreadable("an account link has an unknown kind \(r.1)") }
            return AccountLink(appId: r.0, kind: kind, value: r.2, customer: r.3, linkedAt: r.4)
        }
    }

    /// The customer it was linked to before (a transfer) changes holdings too. (`MATERIALIZED`: read
    /// before the link is written on Citus as well; see `SubscriptionRepository.upsert`.)
    func setLink(appId: UUID, kind: AccountLink.Kind, value: String, customer: UUID) async throws {
        let previous =
            try await scope.first(
                """
                WITH previous AS MATERIALIZED (
                    SELECT customer FROM \(unescaped: schema).account_links WHERE app_id = \(appId) AND kind = \(kind.rawValue) AND value = \(value)
                ), linked AS (
                    INSERT INTO \(unescaped: schema).account_links (app_id, kind, value, customer) VALUES (\(appId), \(kind.rawValue), \(value), \(customer))
                    ON CONFLICT (app_id, kind, value) DO UPDATE SET customer = excluded.customer, linked_at = excluded.linked_at
                    RETURNING 1
                )
                SELECT p.customer FROM linked LEFT JOIN previous p ON true
                """, as: UUID?.self) ?? nil
        scope.changes.holdings(of: customer)
        scope.changes.holdings(of: previous)
    }

    func linkIfUnlinked(appId: UUID, kind: AccountLink.Kind, value: String, customer: UUID) async throws -> Bool {
        let linked =
            try await scope.prepared(
                """
                INSERT INTO \(unescaped: schema).account_links (app_id, kind, value, customer) VALUES (\(appId), \(kind.rawValue), \(value), \(customer))
                ON CONFLICT (app_id, kind, value) DO NOTHING
                RETURNING true
                """, as: Bool.self) ?? false
        if linked { scope.changes.holdings(of: customer) }
        return linked
    }

    func owner(appId: UUID, originalTransactionId: String, appAccountToken: UUID?, appTransactionId: String?) async throws -> UUID? {
        try await scope.prepared(
            """
            SELECT coalesce(
                (SELECT customer FROM \(unescaped: schema).account_links
                 WHERE app_id = \(appId) AND kind = 'originalTransactionId' AND value = \(originalTransactionId)),
                (SELECT id FROM \(unescaped: schema).customers WHERE app_account_token = \(appAccountToken)),
                (SELECT customer FROM \(unescaped: schema).account_links
                 WHERE app_id = \(appId) AND kind = 'appTransactionId' AND value = \(appTransactionId)))
            """, as: UUID?.self) ?? nil
    }
}

extension PostgresTenantUnit {
    var customers: any CustomerStore { CustomerRepository(scope: scope) }
}
