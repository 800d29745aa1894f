import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// Customers and their account links, in the tenant's schema.
struct CustomerRepository: CustomerStore {
    let scope: TenantScope
    var s: String { scope.sql }

    static let columns = "id, customer_id, app_account_token, created_at"

    func ensure(customerId: String) async throws -> (customer: Customer, created: Bool) {
        // One statement, so two first uses of the same id cannot both insert.
        let found = try await scope.all(
            """
            INSERT INTO \(unescaped: s).customers (id, customer_id, app_account_token) VALUES (\(UUID()), \(customerId), \(UUID()))
            ON CONFLICT (customer_id) DO UPDATE SET customer_id = excluded.customer_id
            RETURNING \(unescaped: Self.columns), (xmax = 0)
            """
        ) { row in
            let r = try row.decode((UUID, String, UUID, Date, Bool).self);
            return (Customer(id: r.0, customerId: r.1, appAccountToken: r.2, createdAt: r.3), r.4)
        }
        guard let first = found.first else { throw DatabaseError.unreadable("INSERT … RETURNING returned no row") }
        return first
    }

    func find(id: UUID) async throws -> Customer? {
        try await customers("SELECT \(unescaped: Self.columns) FROM \(unescaped: s).customers WHERE id = \(id)").first
    }

    func find(customerId: String) async throws -> Customer? {
        try await customers("SELECT \(unescaped: Self.columns) FROM \(unescaped: s).customers WHERE customer_id = \(customerId)").first
    }

    func find(appAccountToken: UUID) async throws -> Customer? {
        try await customers("SELECT \(unescaped: Self.columns) FROM \(unescaped: s).customers WHERE app_account_token = \(appAccountToken)").first
    }

    private func customers(_ query: PostgresQuery) async throws -> [Customer] {
        try await scope.all(query) { row in
            let r = try row.decode((UUID, String, UUID, Date).self); return Customer(id: r.0, customerId: r.1, appAccountToken: r.2, createdAt: r.3)
        }
    }

    func link(appId: UUID, kind: AccountLink.Kind, value: String) async throws -> AccountLink? {
        try await links(
            """
            SELECT app_id, kind, value, customer, linked_at FROM \(unescaped: s).account_links
            WHERE app_id = \(appId) AND kind = \(kind.rawValue) AND value = \(value) FOR UPDATE
            """
        ).first
    }

    func links(customer: UUID) async throws -> [AccountLink] {
        try await links(
            "SELECT app_id, kind, value, customer, linked_at FROM \(unescaped: s).account_links WHERE customer = \(customer) ORDER BY linked_at, kind, value")
    }

    private func links(_ query: PostgresQuery) async throws -> [AccountLink] {
        try await scope.all(query) { row -> AccountLink in
            let r = try row.decode((UUID, String, String, UUID, Date).self)
            guard let kind = AccountLink.Kind(rawValue: r.1) else { throw DatabaseError.unreadable("an account link has an unknown kind \(r.1)") }
            return AccountLink(appId: r.0, kind: kind, value: r.2, customer: r.3, linkedAt: r.4)
        }
    }

    /// The customer it was linked to before (a transfer) changes holdings too.
    func setLink(appId: UUID, kind: AccountLink.Kind, value: String, customer: UUID) async throws {
        let previous =
            try await scope.first(
                """
                WITH previous AS (
                    SELECT customer FROM \(unescaped: s).account_links WHERE app_id = \(appId) AND kind = \(kind.rawValue) AND value = \(value)
                )
                INSERT INTO \(unescaped: s).account_links (app_id, kind, value, customer) VALUES (\(appId), \(kind.rawValue), \(value), \(customer))
                ON CONFLICT (app_id, kind, value) DO UPDATE SET customer = excluded.customer, linked_at = now()
                RETURNING (SELECT customer FROM previous)
                """, as: UUID?.self) ?? nil
        scope.changes.holdings(of: customer)
        scope.changes.holdings(of: previous)
    }

    func linkIfUnlinked(appId: UUID, kind: AccountLink.Kind, value: String, customer: UUID) async throws -> Bool {
        let linked =
            try await scope.hot(
                """
                INSERT INTO \(unescaped: s).account_links (app_id, kind, value, customer) VALUES (\(appId), \(kind.rawValue), \(value), \(customer))
                ON CONFLICT (app_id, kind, value) DO NOTHING
                RETURNING true
                """, as: Bool.self) ?? false
        if linked { scope.changes.holdings(of: customer) }
        return linked
    }

    func owner(appId: UUID, originalTransactionId: String, appAccountToken: UUID?, appTransactionId: String?) async throws -> UUID? {
        try await scope.hot(
            """
            SELECT coalesce(
                (SELECT customer FROM \(unescaped: s).account_links
                 WHERE app_id = \(appId) AND kind = 'originalTransactionId' AND value = \(originalTransactionId)),
                (SELECT id FROM \(unescaped: s).customers WHERE app_account_token = \(appAccountToken)),
                (SELECT customer FROM \(unescaped: s).account_links
                 WHERE app_id = \(appId) AND kind = 'appTransactionId' AND value = \(appTransactionId)))
            """, as: UUID?.self) ?? nil
    }
}

/// Verified transactions, in the tenant's schema.
struct TransactionRepository: TransactionStore {
    let scope: TenantScope
    var s: String { scope.sql }

    /// Its customer's holdings change (the row's customer after the write).
    func upsert(_ t: StoredTransaction) async throws -> Bool {
        try await scope.hot(
            """
            INSERT INTO \(unescaped: s).transactions
                (app_id, environment, transaction_id, original_transaction_id, app_transaction_id, customer, product_id, product_type, purchase_date,
                 expires_date, revocation_date, app_account_token, signed_date, signed_transaction, payload)
            VALUES (\(t.appId), \(t.environment.rawValue), \(t.transactionId), \(t.originalTransactionId), \(t.appTransactionId), \(t.customer), \(t.productId),
                    \(t.productType.rawValue), \(t.purchaseDate), \(t.expiresDate), \(t.revocationDate), \(t.appAccountToken), \(t.signedDate),
                    \(t.signedTransaction), \(t.payload)::jsonb)
            ON CONFLICT (app_id, environment, transaction_id) DO UPDATE SET
                customer = coalesce(excluded.customer, transactions.customer), app_transaction_id = excluded.app_transaction_id,
                expires_date = excluded.expires_date, revocation_date = excluded.revocation_date, app_account_token = excluded.app_account_token,
                signed_date = excluded.signed_date, signed_transaction = excluded.signed_transaction, payload = excluded.payload, updated_at = now()
            WHERE transactions.signed_date IS NULL OR excluded.signed_date >= transactions.signed_date
            RETURNING xmax = 0, customer
            """
        ) { row -> Bool in
            let (inserted, customer) = try row.decode((Bool, UUID?).self)
            scope.changes.holdings(of: customer)
            return inserted
        }.first ?? false
    }

    func facts(appId: UUID, transactionId: String) async throws -> TransactionFacts? {
        try await scope.all(
            """
            SELECT t.product_type, t.original_transaction_id, t.environment, coalesce(t.customer, l.customer) FROM \(unescaped: s).transactions t
            LEFT JOIN \(unescaped: s).account_links l
              ON l.app_id = t.app_id AND l.kind = 'originalTransactionId' AND l.value = t.original_transaction_id
            WHERE t.app_id = \(appId) AND t.transaction_id = \(transactionId) LIMIT 1
            """
        ) { row -> TransactionFacts in
            let r = try row.decode((String, String, String, UUID?).self)
            return TransactionFacts(
                productType: ProductType(rawValue: r.0), originalTransactionId: r.1, environment: AppStoreEnvironment(rawValue: r.2), customer: r.3)
        }.first
    }

    /// The columns a `OneTimePurchase` is read from, in order, with their types (for typed NULLs in a UNION).
    static let oneTimeTypedColumns: [(name: String, type: String)] = [
        ("t.app_id", "uuid"), ("t.environment", "text"), ("t.transaction_id", "text"), ("t.original_transaction_id", "text"), ("t.product_id", "text"),
        ("t.product_type", "text"), ("t.purchase_date", "timestamptz"), ("t.expires_date", "timestamptz"), ("t.revocation_date", "timestamptz"),
        ("coalesce((t.payload->>'quantity')::integer, 1) AS quantity", "integer"),
    ]
    static let oneTimeColumns = oneTimeTypedColumns.map(\.name).joined(separator: ", ")

    func oneTimePurchases(customer: UUID) async throws -> [OneTimePurchase] {
        try await scope.all(
            """
            SELECT \(unescaped: Self.oneTimeColumns) FROM \(unescaped: s).transactions t
            WHERE t.customer = \(customer) AND t.product_type <> 'Auto-Renewable Subscription'
            UNION
            SELECT \(unescaped: Self.oneTimeColumns) FROM \(unescaped: s).account_links l
            JOIN \(unescaped: s).transactions t ON t.app_id = l.app_id AND t.original_transaction_id = l.value
            WHERE l.customer = \(customer) AND l.kind = 'originalTransactionId' AND t.product_type <> 'Auto-Renewable Subscription'
            ORDER BY purchase_date
            """
        ) { row in
            var cells = Cells(row)
            return try Self.purchase(&cells)
        }
    }

    /// A one-time purchase from the next cells of a row, in the order of `oneTimeTypedColumns`.
    static func purchase(_ c: inout Cells) throws -> OneTimePurchase {
        OneTimePurchase(
            appId: try c.next(), environment: AppStoreEnvironment(rawValue: try c.next()), transactionId: try c.next(), originalTransactionId: try c.next(),
            productId: try c.next(), productType: ProductType(rawValue: try c.next()), purchaseDate: try c.next(), expiresDate: try c.next(),
            revocationDate: try c.next(), quantity: try c.next())
    }
}
