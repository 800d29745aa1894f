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
        // One statement, so two first uses of the same id cannot both insert. An existing row is rewritten
        // with its own `created_at`, a column no key holds: the row lock that takes does not conflict with
        // the key-share lock a unit inserting a reference to the customer holds (a link, a transaction), so
        // neither waits for the other's commit, as they did when this rewrote `customer_id`, a key.
        let found = try await scope.all(
            """
            INSERT INTO \(unescaped: schema).customers AS c (id, customer_id, app_account_token) VALUES (\(UUID()), \(customerId), \(UUID()))
            ON CONFLICT (customer_id) DO UPDATE SET created_at = c.created_at
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
        let query = SeriesOwnerQuery(
            appId: appId, originalTransactionId: originalTransactionId, appAccountToken: appAccountToken, appTransactionId: appTransactionId)
        return try await owners([query], link: false).first?.owner
    }

    /// One statement: a batch of notifications asks this once.
    func linkSeries(_ series: [SeriesOwnerQuery]) async throws -> [(owner: UUID?, linked: Bool)] {
        try await owners(series, link: true)
    }

    private func owners(_ series: [SeriesOwnerQuery], link: Bool) async throws -> [(owner: UUID?, linked: Bool)] {
        guard !series.isEmpty else { return [] }
        var sql = ValueRows("WITH input (n, app_id, original_transaction_id, app_account_token, app_transaction_id, fallback) AS (VALUES ")
        sql.tuples(Array(series.enumerated())) { row, item in
            row.add(item.offset)
            row.add(item.element.appId)
            row.add(item.element.originalTransactionId)
            row.add(item.element.appAccountToken)
            row.add(item.element.appTransactionId)
            row.add(item.element.fallback)
        }
        sql.append(
            """
            ), owner AS (
                SELECT i.n, i.app_id, i.original_transaction_id, coalesce(
                    (SELECT customer FROM \(schema).account_links
                     WHERE app_id = i.app_id AND kind = 'originalTransactionId' AND value = i.original_transaction_id),
                    (SELECT id FROM \(schema).customers WHERE app_account_token = i.app_account_token),
                    (SELECT customer FROM \(schema).account_links
                     WHERE app_id = i.app_id AND kind = 'appTransactionId' AND value = i.app_transaction_id),
                    i.fallback) AS customer
                FROM input i
            )
            """)
        // Looking only, it writes nothing (and may run where nothing can be written).
        sql.append(
            link
                ? """
                , linked AS (
                    INSERT INTO \(schema).account_links (app_id, kind, value, customer)
                    SELECT app_id, 'originalTransactionId', original_transaction_id, customer FROM owner WHERE customer IS NOT NULL
                    ON CONFLICT (app_id, kind, value) DO NOTHING
                    RETURNING app_id, value
                )
                SELECT o.n, o.customer, EXISTS (SELECT FROM linked l WHERE l.app_id = o.app_id AND l.value = o.original_transaction_id)
                FROM owner o
                """
                : "\nSELECT n, customer, false FROM owner")
        var found = Array(repeating: (owner: UUID?.none, linked: false), count: series.count)
        for (n, owner, linked) in try await scope.prepared(sql.query, { try $0.decode((Int, UUID?, Bool).self) }) where found.indices.contains(n) {
            found[n] = (owner, linked)
            if linked { scope.changes.holdings(of: owner) }
        }
        return found
    }
}

extension PostgresTenantUnit {
    var customers: any CustomerStore { CustomerRepository(scope: scope) }
}
