import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// Verified transactions, in the tenant's schema.
struct TransactionRepository: TransactionStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    /// Its customer's holdings change (the row's customer after the write).
    func upsert(_ transactions: [StoredTransaction]) async throws -> [Bool] {
        guard !transactions.isEmpty else { return [] }
        var sql = ValueRows(
            """
            INSERT INTO \(schema).transactions
                (app_id, environment, transaction_id, original_transaction_id, app_transaction_id, customer, product_id, product_type, purchase_date,
                 expires_date, revocation_date, app_account_token, signed_date, signed_transaction, payload)
            VALUES\u{20}
            """)
        sql.tuples(transactions) { row, t in
            row.add(t.appId)
            row.add(t.environment.rawValue)
            row.add(t.transactionId)
            row.add(t.originalTransactionId)
            row.add(t.appTransactionId)
            row.add(t.customer)
            row.add(t.productId)
            row.add(t.productType.rawValue)
            row.add(t.purchaseDate)
            row.add(t.expiresDate)
            row.add(t.revocationDate)
            row.add(t.appAccountToken)
            row.add(t.signedDate)
            row.add(t.signedTransaction)
            row.add(t.payload, cast: "jsonb")
        }
        sql.append(
            """

            ON CONFLICT (app_id, environment, transaction_id) DO UPDATE SET
                customer = coalesce(excluded.customer, transactions.customer), app_transaction_id = excluded.app_transaction_id,
                expires_date = excluded.expires_date, revocation_date = excluded.revocation_date, app_account_token = excluded.app_account_token,
                signed_date = excluded.signed_date, signed_transaction = excluded.signed_transaction, payload = excluded.payload, updated_at = excluded.updated_at
            WHERE transactions.signed_date IS NULL OR excluded.signed_date >= transactions.signed_date
            RETURNING app_id, environment, transaction_id, xmax = 0, customer
            """)
        var inserted: Set<TransactionKey> = []
        for (key, new, customer) in try await scope.prepared(
            sql.query,
            { row in
                let r = try row.decode((UUID, String, String, Bool, UUID?).self)
                return (TransactionKey(appId: r.0, environment: r.1, transactionId: r.2), r.3, r.4)
            })
        {
            scope.changes.holdings(of: customer)
            if new { inserted.insert(key) }
        }
        return transactions.map { inserted.contains(TransactionKey(appId: $0.appId, environment: $0.environment.rawValue, transactionId: $0.transactionId)) }
    }

    private struct TransactionKey: Hashable {
        let appId: UUID
        let environment: String
        let transactionId: String
    }

    func facts(appId: UUID, transactionId: String) async throws -> TransactionFacts? {
        try await scope.all(
            """
            SELECT t.product_type, t.original_transaction_id, t.environment, coalesce(t.customer, l.customer) FROM \(unescaped: schema).transactions t
            LEFT JOIN \(unescaped: schema).account_links l
              ON l.app_id = t.app_id AND l.kind = 'originalTransactionId' AND l.value = t.original_transaction_id
            WHERE t.app_id = \(appId) AND t.transaction_id = \(transactionId) LIMIT 1
            """
        ) { row -> TransactionFacts in
            let r = try row.decode((String, String, String, UUID?).self)
            return TransactionFacts(
                productType: ProductType(rawValue: r.0), originalTransactionId: r.1, environment: AppStoreEnvironment(rawValue: r.2), customer: r.3)
        }.first
    }

    /// One statement on the `(app_id, original_transaction_id)` index; the facts are read from the verified payload.
    func series(appId: UUID, originalTransactionIds: [String]) async throws -> [String: [SeriesTransaction]] {
        guard !originalTransactionIds.isEmpty else { return [:] }
        let rows = try await scope.prepared(
            """
            SELECT original_transaction_id, transaction_id, product_id, product_type, purchase_date, expires_date, (payload ->> 'price')::bigint,
                   payload ->> 'currency', (payload ->> 'offerType')::int, payload ->> 'offerDiscountType', payload ->> 'offerIdentifier',
                   payload ->> 'transactionReason', revocation_date
            FROM \(unescaped: schema).transactions WHERE app_id = \(appId) AND original_transaction_id = ANY(\(originalTransactionIds))
            ORDER BY original_transaction_id, purchase_date, transaction_id
            """
        ) { row -> (String, SeriesTransaction) in
            let r = try row.decode((String, String, String, String, Date?, Date?, Int64?, String?, Int32?, String?, String?, String?, Date?).self)
            return (
                r.0,
                SeriesTransaction(
                    transactionId: r.1, productId: r.2, productType: ProductType(rawValue: r.3), purchaseDate: r.4, expiresDate: r.5, price: r.6,
                    currency: r.7, offerType: r.8.map(OfferType.init(rawValue:)), offerDiscountType: r.9.map(OfferDiscountType.init(rawValue:)),
                    offerIdentifier: r.10, transactionReason: r.11.map(TransactionReason.init(rawValue:)), revocationDate: r.12)
            )
        }
        return Dictionary(grouping: rows, by: \.0).mapValues { $0.map(\.1) }
    }

    func knownSeries(appId: UUID, originalTransactionIds: [String]) async throws -> Set<String> {
        guard !originalTransactionIds.isEmpty else { return [] }
        return Set(
            try await scope.all(
                """
                SELECT DISTINCT original_transaction_id FROM \(unescaped: schema).transactions
                WHERE app_id = \(appId) AND original_transaction_id = ANY(\(originalTransactionIds))
                """
            ) { try $0.decode(String.self) })
    }

    func lockSeries(_ series: [SeriesKey]) async throws {
        let keys = Set(series)
        guard keys.count > 1 else { return }
        // Transaction-scoped advisory locks (seed 23: the renewal extensions' are 17), taken in the order of
        // their keys: the subquery's ORDER BY keeps it from being flattened, so the locks are taken row by
        // row in that order. The text names no schema, so every tenant's units share one prepared statement.
        try await scope.prepared(
            """
            SELECT count(pg_advisory_xact_lock(key)) FROM (
                SELECT DISTINCT hashtextextended(series, 23) AS key
                FROM unnest(\(keys.map { "\($0.appId.uuidString)/\($0.environment.rawValue)/\($0.originalTransactionId)" })::text[]) AS series
                ORDER BY key) AS keys
            """)
    }

    func setOrder(appId: UUID, orderId: String, transactionIds: [String]) async throws {
        try await scope.run(
            """
            UPDATE \(unescaped: schema).transactions SET order_id = \(orderId)
            WHERE app_id = \(appId) AND transaction_id = ANY(\(transactionIds)) AND order_id IS DISTINCT FROM \(orderId)
            """)
    }

    func customer(orderId: String, appId: UUID?) async throws -> UUID? {
        try await scope.all(
            """
            SELECT coalesce(t.customer, l.customer) FROM \(unescaped: schema).transactions t
            LEFT JOIN \(unescaped: schema).account_links l
              ON l.app_id = t.app_id AND l.kind = 'originalTransactionId' AND l.value = t.original_transaction_id
            WHERE t.order_id = \(orderId) AND (\(appId)::uuid IS NULL OR t.app_id = \(appId)) AND coalesce(t.customer, l.customer) IS NOT NULL
            ORDER BY t.purchase_date LIMIT 1
            """
        ) { try $0.decode(UUID.self) }.first
    }

    /// The columns a `OneTimePurchase` is read from, in the order `purchase(_:)` reads them.
    static let oneTimeColumns: [Column] = [
        Column("t.app_id", "uuid"), Column("t.environment", "text"), Column("t.transaction_id", "text"), Column("t.original_transaction_id", "text"),
        Column("t.product_id", "text"), Column("t.product_type", "text"), Column("t.purchase_date", "timestamptz"), Column("t.expires_date", "timestamptz"),
        Column("t.revocation_date", "timestamptz"), Column("coalesce((t.payload->>'quantity')::integer, 1)", "integer", as: "quantity"),
    ]

    func oneTimePurchases(customer: UUID) async throws -> [OneTimePurchase] {
        try await scope.all(
            """
            SELECT \(unescaped: Self.oneTimeColumns.selected) FROM \(unescaped: schema).transactions t
            WHERE t.customer = \(customer) AND t.product_type <> 'Auto-Renewable Subscription'
            UNION
            SELECT \(unescaped: Self.oneTimeColumns.selected) FROM \(unescaped: schema).account_links l
            JOIN \(unescaped: schema).transactions t ON t.app_id = l.app_id AND t.original_transaction_id = l.value
            WHERE l.customer = \(customer) AND l.kind = 'originalTransactionId' AND t.product_type <> 'Auto-Renewable Subscription'
            ORDER BY purchase_date
            """
        ) { row in
            var cells = Cells(row)
            return try Self.purchase(&cells)
        }
    }

    /// A one-time purchase from the next cells of a row, each read by its name in `oneTimeColumns`.
    static func purchase(_ c: inout Cells) throws -> OneTimePurchase {
        OneTimePurchase(
            appId: try c.next("app_id"), environment: AppStoreEnvironment(rawValue: try c.next("environment")), transactionId: try c.next("transaction_id"),
            originalTransactionId: try c.next("original_transaction_id"), productId: try c.next("product_id"),
            productType: ProductType(rawValue: try c.next("product_type")), purchaseDate: try c.next("purchase_date"), expiresDate: try c.next("expires_date"),
            revocationDate: try c.next("revocation_date"), quantity: try c.next("quantity"))
    }
}

extension PostgresTenantUnit {
    var transactions: any TransactionStore { TransactionRepository(scope: scope) }
}
