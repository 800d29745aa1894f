import Foundation
import Logging
import PostgresNIO

public struct CustomerRecord: Sendable, Equatable {
    public let id: UUID
    public let customerId: String
    public let appAccountToken: UUID
    public let createdAt: Date
}

public struct AccountLinkRecord: Sendable, Equatable {
    public let appId: UUID
    /// `appTransactionId` or `originalTransactionId`.
    public let kind: String
    public let value: String
    public let customer: UUID
    public let linkedAt: Date
}

/// A verified transaction as stored in the tenant's schema.
public struct TransactionRow: Sendable {
    public let appId: UUID
    public let environment: String
    public let transactionId: String
    public let originalTransactionId: String
    public let appTransactionId: String?
    public let customer: UUID?
    public let productId: String
    public let productType: String
    public let purchaseDate: Date?
    public let expiresDate: Date?
    public let revocationDate: Date?
    public let appAccountToken: UUID?
    public let signedDate: Date?
    public let signedTransaction: String
    public let payload: String

    public init(
        appId: UUID, environment: String, transactionId: String, originalTransactionId: String, appTransactionId: String?, customer: UUID?, productId: String,
        productType: String, purchaseDate: Date?, expiresDate: Date?, revocationDate: Date?, appAccountToken: UUID?, signedDate: Date?, signedTransaction: String,
        payload: String
    ) {
        self.appId = appId
        self.environment = environment
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.appTransactionId = appTransactionId
        self.customer = customer
        self.productId = productId
        self.productType = productType
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.appAccountToken = appAccountToken
        self.signedDate = signedDate
        self.signedTransaction = signedTransaction
        self.payload = payload
    }
}

/// Customers, their account links and their transactions, in one tenant's schema.
public struct AccountRepository: Sendable {
    let logger: Logger
    public init(logger: Logger) { self.logger = logger }

    static let customerColumns = "id, customer_id, app_account_token, created_at"

    /// The customer with this id, created with a fresh appAccountToken on first use (race-free: one statement).
    public func ensureCustomer(customerId: String, in schema: TenantSchema, on conn: PostgresConnection) async throws -> (CustomerRecord, created: Bool) {
        let rows = try await conn.query(
            """
            INSERT INTO \(unescaped: schema.sql).customers (id, customer_id, app_account_token) VALUES (\(UUID()), \(customerId), \(UUID()))
            ON CONFLICT (customer_id) DO UPDATE SET customer_id = excluded.customer_id
            RETURNING \(unescaped: Self.customerColumns), (xmax = 0)
            """, logger: logger)
        for try await r in rows.decode((UUID, String, UUID, Date, Bool).self) {
            return (CustomerRecord(id: r.0, customerId: r.1, appAccountToken: r.2, createdAt: r.3), r.4)
        }
        throw DatabaseError.invalidConfiguration("INSERT … RETURNING returned no row")
    }

    public func customer(id: UUID, in schema: TenantSchema, on conn: PostgresConnection) async throws -> CustomerRecord? {
        try await customers("SELECT \(unescaped: Self.customerColumns) FROM \(unescaped: schema.sql).customers WHERE id = \(id)", on: conn).first
    }

    public func customer(appAccountToken: UUID, in schema: TenantSchema, on conn: PostgresConnection) async throws -> CustomerRecord? {
        try await customers("SELECT \(unescaped: Self.customerColumns) FROM \(unescaped: schema.sql).customers WHERE app_account_token = \(appAccountToken)", on: conn).first
    }

    public func customer(customerId: String, in schema: TenantSchema, on conn: PostgresConnection) async throws -> CustomerRecord? {
        try await customers("SELECT \(unescaped: Self.customerColumns) FROM \(unescaped: schema.sql).customers WHERE customer_id = \(customerId)", on: conn).first
    }

    private func customers(_ query: PostgresQuery, on conn: PostgresConnection) async throws -> [CustomerRecord] {
        var out: [CustomerRecord] = []
        for try await r in try await conn.query(query, logger: logger).decode((UUID, String, UUID, Date).self) {
            out.append(CustomerRecord(id: r.0, customerId: r.1, appAccountToken: r.2, createdAt: r.3))
        }
        return out
    }

    /// The link of an identifier, locked for the caller's transaction.
    public func link(appId: UUID, kind: String, value: String, in schema: TenantSchema, on conn: PostgresConnection) async throws -> AccountLinkRecord? {
        try await links(
            """
            SELECT app_id, kind, value, customer, linked_at FROM \(unescaped: schema.sql).account_links
            WHERE app_id = \(appId) AND kind = \(kind) AND value = \(value) FOR UPDATE
            """, on: conn
        ).first
    }

    public func links(customer: UUID, in schema: TenantSchema, on conn: PostgresConnection) async throws -> [AccountLinkRecord] {
        try await links(
            "SELECT app_id, kind, value, customer, linked_at FROM \(unescaped: schema.sql).account_links WHERE customer = \(customer) ORDER BY linked_at, kind, value",
            on: conn)
    }

    /// Links an identifier to a customer (moving it when it was linked to another).
    public func setLink(appId: UUID, kind: String, value: String, customer: UUID, in schema: TenantSchema, on conn: PostgresConnection) async throws {
        try await conn.run(
            """
            INSERT INTO \(unescaped: schema.sql).account_links (app_id, kind, value, customer) VALUES (\(appId), \(kind), \(value), \(customer))
            ON CONFLICT (app_id, kind, value) DO UPDATE SET customer = excluded.customer, linked_at = now()
            """, logger: logger)
    }

    private func links(_ query: PostgresQuery, on conn: PostgresConnection) async throws -> [AccountLinkRecord] {
        var out: [AccountLinkRecord] = []
        for try await r in try await conn.query(query, logger: logger).decode((UUID, String, String, UUID, Date).self) {
            out.append(AccountLinkRecord(appId: r.0, kind: r.1, value: r.2, customer: r.3, linkedAt: r.4))
        }
        return out
    }

    /// Stores a transaction; an older signed version never replaces a newer one.
    public func upsert(_ t: TransactionRow, in schema: TenantSchema, on conn: PostgresConnection) async throws {
        try await conn.run(
            """
            INSERT INTO \(unescaped: schema.sql).transactions
                (app_id, environment, transaction_id, original_transaction_id, app_transaction_id, customer, product_id, product_type, purchase_date,
                 expires_date, revocation_date, app_account_token, signed_date, signed_transaction, payload)
            VALUES (\(t.appId), \(t.environment), \(t.transactionId), \(t.originalTransactionId), \(t.appTransactionId), \(t.customer), \(t.productId),
                    \(t.productType), \(t.purchaseDate), \(t.expiresDate), \(t.revocationDate), \(t.appAccountToken), \(t.signedDate), \(t.signedTransaction),
                    \(t.payload)::jsonb)
            ON CONFLICT (app_id, environment, transaction_id) DO UPDATE SET
                customer = coalesce(excluded.customer, transactions.customer), app_transaction_id = excluded.app_transaction_id,
                expires_date = excluded.expires_date, revocation_date = excluded.revocation_date, app_account_token = excluded.app_account_token,
                signed_date = excluded.signed_date, signed_transaction = excluded.signed_transaction, payload = excluded.payload, updated_at = now()
            WHERE transactions.signed_date IS NULL OR excluded.signed_date >= transactions.signed_date
            """, logger: logger)
    }

    /// The customer of a stored transaction.
    public func customerOfTransaction(appId: UUID, transactionId: String, in schema: TenantSchema, on conn: PostgresConnection) async throws -> UUID? {
        try await conn.first(
            """
            SELECT coalesce(t.customer, l.customer) FROM \(unescaped: schema.sql).transactions t
            LEFT JOIN \(unescaped: schema.sql).account_links l
              ON l.app_id = t.app_id AND l.kind = 'originalTransactionId' AND l.value = t.original_transaction_id
            WHERE t.app_id = \(appId) AND t.transaction_id = \(transactionId) LIMIT 1
            """, as: UUID?.self, logger: logger) ?? nil
    }

    /// The customer Apple's data belongs to: by the `originalTransactionId` link, the `appAccountToken`, or the
    /// `appTransactionId` link, in that order.
    public func customerOf(
        appId: UUID, originalTransactionId: String, appAccountToken: UUID?, appTransactionId: String?, in schema: TenantSchema, on conn: PostgresConnection
    ) async throws -> UUID? {
        try await conn.first(
            """
            SELECT coalesce(
                (SELECT customer FROM \(unescaped: schema.sql).account_links
                 WHERE app_id = \(appId) AND kind = 'originalTransactionId' AND value = \(originalTransactionId)),
                (SELECT id FROM \(unescaped: schema.sql).customers WHERE app_account_token = \(appAccountToken)),
                (SELECT customer FROM \(unescaped: schema.sql).account_links
                 WHERE app_id = \(appId) AND kind = 'appTransactionId' AND value = \(appTransactionId)))
            """, as: UUID?.self, logger: logger) ?? nil
    }

    /// Links an identifier unless it is linked already (to anyone): links from Apple's data never move one.
    public func linkIfUnlinked(appId: UUID, kind: String, value: String, customer: UUID, in schema: TenantSchema, on conn: PostgresConnection) async throws {
        try await conn.run(
            """
            INSERT INTO \(unescaped: schema.sql).account_links (app_id, kind, value, customer) VALUES (\(appId), \(kind), \(value), \(customer))
            ON CONFLICT (app_id, kind, value) DO NOTHING
            """, logger: logger)
    }

    /// The stored transaction's product type and original transaction ID, when Storegate has it.
    public func transactionFacts(appId: UUID, transactionId: String, in schema: TenantSchema, on conn: PostgresConnection) async throws
        -> (productType: String, originalTransactionId: String, environment: String, customer: UUID?)?
    {
        let rows = try await conn.query(
            """
            SELECT t.product_type, t.original_transaction_id, t.environment, coalesce(t.customer, l.customer) FROM \(unescaped: schema.sql).transactions t
            LEFT JOIN \(unescaped: schema.sql).account_links l
              ON l.app_id = t.app_id AND l.kind = 'originalTransactionId' AND l.value = t.original_transaction_id
            WHERE t.app_id = \(appId) AND t.transaction_id = \(transactionId) LIMIT 1
            """, logger: logger)
        for try await r in rows.decode((String, String, String, UUID?).self) { return (r.0, r.1, r.2, r.3) }
        return nil
    }
}
