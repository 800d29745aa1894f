import Foundation
import Logging
import PostgresNIO

/// One auto-renewable subscription (by `originalTransactionId`) as Storegate last learned it.
public struct SubscriptionRow: Sendable, Equatable {
    public var appId: UUID
    public var environment: String
    public var originalTransactionId: String
    public var subscriptionGroupIdentifier: String?
    public var customer: UUID?
    /// Apple's status: 1 active, 2 expired, 3 billing retry, 4 billing grace period, 5 revoked.
    public var status: Int32
    public var productId: String
    public var latestTransactionId: String
    public var purchaseDate: Date?
    public var expiresDate: Date?
    public var autoRenewStatus: Bool?
    public var autoRenewProductId: String?
    public var inBillingRetry: Bool
    public var gracePeriodExpiresDate: Date?
    public var offerType: Int32?
    public var offerIdentifier: String?
    public var price: Int64?
    public var currency: String?
    /// When Apple signed the newest data applied; older data never replaces newer.
    public var signedDate: Date
    public var updatedAt: Date?

    public init(
        appId: UUID, environment: String, originalTransactionId: String, subscriptionGroupIdentifier: String?, customer: UUID?, status: Int32, productId: String,
        latestTransactionId: String, purchaseDate: Date?, expiresDate: Date?, autoRenewStatus: Bool?, autoRenewProductId: String?, inBillingRetry: Bool,
        gracePeriodExpiresDate: Date?, offerType: Int32?, offerIdentifier: String?, price: Int64?, currency: String?, signedDate: Date, updatedAt: Date? = nil
    ) {
        self.appId = appId
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.customer = customer
        self.status = status
        self.productId = productId
        self.latestTransactionId = latestTransactionId
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.autoRenewStatus = autoRenewStatus
        self.autoRenewProductId = autoRenewProductId
        self.inBillingRetry = inBillingRetry
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.price = price
        self.currency = currency
        self.signedDate = signedDate
        self.updatedAt = updatedAt
    }
}

/// Subscriptions in a tenant's schema.
public struct SubscriptionRepository: Sendable {
    let logger: Logger
    public init(logger: Logger) { self.logger = logger }

    static let columns = """
        s.app_id, s.environment, s.original_transaction_id, s.subscription_group_identifier, s.customer, s.status, s.product_id, s.latest_transaction_id,
        s.purchase_date, s.expires_date, s.auto_renew_status, s.auto_renew_product_id, s.in_billing_retry, s.grace_period_expires_date, s.offer_type,
        s.offer_identifier, s.price, s.currency, s.signed_date, s.updated_at
        """

    /// Stores what Apple signed; data signed earlier than what is stored is ignored. Returns whether it applied.
    @discardableResult
    public func upsert(_ s: SubscriptionRow, in schema: TenantSchema, on conn: PostgresConnection) async throws -> Bool {
        let applied = try await conn.first(
            """
            INSERT INTO \(unescaped: schema.sql).subscriptions AS s
                (app_id, environment, original_transaction_id, subscription_group_identifier, customer, status, product_id, latest_transaction_id,
                 purchase_date, expires_date, auto_renew_status, auto_renew_product_id, in_billing_retry, grace_period_expires_date, offer_type,
                 offer_identifier, price, currency, signed_date)
            VALUES (\(s.appId), \(s.environment), \(s.originalTransactionId), \(s.subscriptionGroupIdentifier), \(s.customer), \(Int(s.status)), \(s.productId),
                    \(s.latestTransactionId), \(s.purchaseDate), \(s.expiresDate), \(s.autoRenewStatus), \(s.autoRenewProductId), \(s.inBillingRetry),
                    \(s.gracePeriodExpiresDate), \(s.offerType.map(Int.init)), \(s.offerIdentifier), \(s.price), \(s.currency), \(s.signedDate))
            ON CONFLICT (app_id, environment, original_transaction_id) DO UPDATE SET
                subscription_group_identifier = coalesce(excluded.subscription_group_identifier, s.subscription_group_identifier),
                customer = coalesce(excluded.customer, s.customer), status = excluded.status, product_id = excluded.product_id,
                latest_transaction_id = excluded.latest_transaction_id, purchase_date = excluded.purchase_date, expires_date = excluded.expires_date,
                auto_renew_status = coalesce(excluded.auto_renew_status, s.auto_renew_status),
                auto_renew_product_id = coalesce(excluded.auto_renew_product_id, s.auto_renew_product_id), in_billing_retry = excluded.in_billing_retry,
                grace_period_expires_date = excluded.grace_period_expires_date, offer_type = excluded.offer_type, offer_identifier = excluded.offer_identifier,
                price = coalesce(excluded.price, s.price), currency = coalesce(excluded.currency, s.currency), signed_date = excluded.signed_date,
                updated_at = now()
            WHERE excluded.signed_date >= s.signed_date
            RETURNING 1
            """, as: Int.self, logger: logger)
        return applied != nil
    }

    /// Moves the expiry of a subscription after a renewal-date extension.
    public func extend(appId: UUID, originalTransactionId: String, to date: Date, in schema: TenantSchema, on conn: PostgresConnection) async throws {
        try await conn.run(
            """
            UPDATE \(unescaped: schema.sql).subscriptions SET expires_date = greatest(expires_date, \(date)), updated_at = now()
            WHERE app_id = \(appId) AND original_transaction_id = \(originalTransactionId)
            """, logger: logger)
    }

    /// A customer's subscriptions: stored with the customer or linked to them by `originalTransactionId`.
    /// The customer's subscriptions: those stored with the customer, and those whose originalTransactionId is linked
    /// to the customer. A UNION of the two index paths: an OR across them made PostgreSQL scan the whole table.
    public func list(customer: UUID, in schema: TenantSchema, on conn: PostgresConnection) async throws -> [SubscriptionRow] {
        try await rows(
            """
            SELECT \(unescaped: Self.columns) FROM \(unescaped: schema.sql).subscriptions s WHERE s.customer = \(customer)
            UNION
            SELECT \(unescaped: Self.columns) FROM \(unescaped: schema.sql).account_links l
            JOIN \(unescaped: schema.sql).subscriptions s ON s.app_id = l.app_id AND s.original_transaction_id = l.value
            WHERE l.customer = \(customer) AND l.kind = 'originalTransactionId'
            ORDER BY app_id, subscription_group_identifier, signed_date DESC
            """, on: conn)
    }

    public func list(appId: UUID, originalTransactionId: String, in schema: TenantSchema, on conn: PostgresConnection) async throws -> [SubscriptionRow] {
        try await rows(
            """
            SELECT \(unescaped: Self.columns) FROM \(unescaped: schema.sql).subscriptions s
            WHERE s.app_id = \(appId) AND s.original_transaction_id = \(originalTransactionId)
            """, on: conn)
    }

    private func rows(_ query: PostgresQuery, on conn: PostgresConnection) async throws -> [SubscriptionRow] {
        var out: [SubscriptionRow] = []
        let rows = try await conn.query(query, logger: logger)
        for try await row in rows {
            let r = try row.decode(
                (UUID, String, String, String?, UUID?, Int, String, String, Date?, Date?, Bool?, String?, Bool, Date?, Int?, String?, Int64?, String?, Date, Date).self)
            out.append(
                SubscriptionRow(
                    appId: r.0, environment: r.1, originalTransactionId: r.2, subscriptionGroupIdentifier: r.3, customer: r.4, status: Int32(r.5), productId: r.6,
                    latestTransactionId: r.7, purchaseDate: r.8, expiresDate: r.9, autoRenewStatus: r.10, autoRenewProductId: r.11, inBillingRetry: r.12,
                    gracePeriodExpiresDate: r.13, offerType: r.14.map(Int32.init), offerIdentifier: r.15, price: r.16, currency: r.17, signedDate: r.18,
                    updatedAt: r.19))
        }
        return out
    }
}

/// A purchase that is not an auto-renewable subscription, for entitlements.
public struct OneTimePurchase: Sendable, Equatable {
    public let appId: UUID
    public let environment: String
    public let transactionId: String
    public let originalTransactionId: String
    public let productId: String
    public let productType: String
    public let purchaseDate: Date?
    public let expiresDate: Date?
    public let revocationDate: Date?
    public let quantity: Int
}

extension SubscriptionRepository {
    static let oneTimeColumns = """
        t.app_id, t.environment, t.transaction_id, t.original_transaction_id, t.product_id, t.product_type, t.purchase_date, t.expires_date,
        t.revocation_date, coalesce((t.payload->>'quantity')::integer, 1) AS quantity
        """

    /// A customer's stored transactions other than auto-renewable subscriptions, found the same two ways as
    /// `list(customer:)`, by the same UNION of index paths.
    public func oneTimePurchases(customer: UUID, in schema: TenantSchema, on conn: PostgresConnection) async throws -> [OneTimePurchase] {
        var out: [OneTimePurchase] = []
        let rows = try await conn.query(
            """
            SELECT \(unescaped: Self.oneTimeColumns) FROM \(unescaped: schema.sql).transactions t
            WHERE t.customer = \(customer) AND t.product_type <> 'Auto-Renewable Subscription'
            UNION
            SELECT \(unescaped: Self.oneTimeColumns) FROM \(unescaped: schema.sql).account_links l
            JOIN \(unescaped: schema.sql).transactions t ON t.app_id = l.app_id AND t.original_transaction_id = l.value
            WHERE l.customer = \(customer) AND l.kind = 'originalTransactionId' AND t.product_type <> 'Auto-Renewable Subscription'
            ORDER BY purchase_date
            """, logger: logger)
        for try await r in rows.decode((UUID, String, String, String, String, String, Date?, Date?, Date?, Int).self) {
            out.append(
                OneTimePurchase(
                    appId: r.0, environment: r.1, transactionId: r.2, originalTransactionId: r.3, productId: r.4, productType: r.5, purchaseDate: r.6,
                    expiresDate: r.7, revocationDate: r.8, quantity: r.9))
        }
        return out
    }
}
