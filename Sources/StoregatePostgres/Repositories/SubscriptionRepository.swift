import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// Subscriptions in the tenant's schema.
struct SubscriptionRepository: SubscriptionStore {
    let scope: TenantScope
    var s: String { scope.sql }

    /// The columns a `Subscription` is read from, in order, with their types (for typed NULLs in a UNION).
    static let typedColumns: [(name: String, type: String)] = [
        ("s.app_id", "uuid"), ("s.environment", "text"), ("s.original_transaction_id", "text"), ("s.subscription_group_identifier", "text"),
        ("s.customer", "uuid"), ("s.status", "integer"), ("s.product_id", "text"), ("s.latest_transaction_id", "text"),
        ("s.purchase_date", "timestamptz"), ("s.expires_date", "timestamptz"), ("s.auto_renew_status", "boolean"), ("s.auto_renew_product_id", "text"),
        ("s.in_billing_retry", "boolean"), ("s.grace_period_expires_date", "timestamptz"), ("s.offer_type", "integer"), ("s.offer_identifier", "text"),
        ("s.price", "bigint"), ("s.currency", "text"), ("s.signed_date", "timestamptz"), ("s.offer_period", "text"), ("s.renewal::text", "text"),
        ("s.updated_at", "timestamptz"),
    ]
    static let columns = typedColumns.map(\.name).joined(separator: ", ")

    /// The previous state is read in the same statement, so from the same snapshot: what was committed
    /// when it started. (A change another unit commits to the same subscription while this one runs is
    /// applied first or refused by the signed date, but this event's previous state does not show it.)
    /// Its customer's holdings change (the row's customer after the write).
    @discardableResult
    func upsert(_ s: Subscription) async throws -> SubscriptionChange? {
        try await scope.hot(
            """
            WITH previous AS (
                SELECT status, product_id, expires_date, auto_renew_status FROM \(unescaped: self.s).subscriptions
                WHERE app_id = \(s.appId) AND environment = \(s.environment.rawValue) AND original_transaction_id = \(s.originalTransactionId)
            ), upserted AS (
            INSERT INTO \(unescaped: self.s).subscriptions AS s
                (app_id, environment, original_transaction_id, subscription_group_identifier, customer, status, product_id, latest_transaction_id,
                 purchase_date, expires_date, auto_renew_status, auto_renew_product_id, in_billing_retry, grace_period_expires_date, offer_type,
                 offer_identifier, price, currency, signed_date, offer_period, renewal)
            VALUES (\(s.appId), \(s.environment.rawValue), \(s.originalTransactionId), \(s.subscriptionGroupIdentifier), \(s.customer), \(Int(s.status.rawValue)),
                    \(s.productId), \(s.latestTransactionId), \(s.purchaseDate), \(s.expiresDate), \(s.autoRenewStatus), \(s.autoRenewProductId),
                    \(s.inBillingRetry), \(s.gracePeriodExpiresDate), \(s.offerType.map { Int($0.rawValue) }), \(s.offerIdentifier), \(s.price), \(s.currency),
                    \(s.signedDate), \(s.offerPeriod), \(try s.renewal.map(JSONColumn.encode))::jsonb)
            ON CONFLICT (app_id, environment, original_transaction_id) DO UPDATE SET
                subscription_group_identifier = coalesce(excluded.subscription_group_identifier, s.subscription_group_identifier),
                customer = coalesce(excluded.customer, s.customer), status = excluded.status, product_id = excluded.product_id,
                latest_transaction_id = excluded.latest_transaction_id, purchase_date = excluded.purchase_date, expires_date = excluded.expires_date,
                auto_renew_status = coalesce(excluded.auto_renew_status, s.auto_renew_status),
                auto_renew_product_id = coalesce(excluded.auto_renew_product_id, s.auto_renew_product_id), in_billing_retry = excluded.in_billing_retry,
                grace_period_expires_date = excluded.grace_period_expires_date, offer_type = excluded.offer_type, offer_identifier = excluded.offer_identifier,
                price = coalesce(excluded.price, s.price), currency = coalesce(excluded.currency, s.currency), signed_date = excluded.signed_date,
                offer_period = excluded.offer_period, renewal = coalesce(excluded.renewal, s.renewal),
                updated_at = now()
            WHERE excluded.signed_date >= s.signed_date
            RETURNING status, product_id, expires_date, auto_renew_status, customer
            )
            SELECT u.status, u.product_id, u.expires_date, u.auto_renew_status, p.status, p.product_id, p.expires_date, p.auto_renew_status, u.customer
            FROM upserted u LEFT JOIN previous p ON true
            """
        ) { row -> SubscriptionChange in
            let r = try row.decode((Int32, String, Date?, Bool?, Int32?, String?, Date?, Bool?, UUID?).self)
            scope.changes.holdings(of: r.8)
            let previous = r.4.map { SubscriptionChange.State(status: Status(rawValue: $0), productId: r.5 ?? "", expiresDate: r.6, autoRenewStatus: r.7) }
            return SubscriptionChange(
                previous: previous, current: SubscriptionChange.State(status: Status(rawValue: r.0), productId: r.1, expiresDate: r.2, autoRenewStatus: r.3))
        }.first
    }

    /// The holdings of the subscription's customer, and of the customer its `originalTransactionId` is
    /// linked to, change.
    func extend(appId: UUID, originalTransactionId: String, to date: Date) async throws {
        let owners = try await scope.all(
            """
            UPDATE \(unescaped: s).subscriptions s SET expires_date = greatest(expires_date, \(date)), updated_at = now()
            WHERE app_id = \(appId) AND original_transaction_id = \(originalTransactionId)
            RETURNING customer, (SELECT customer FROM \(unescaped: s).account_links l
                                 WHERE l.app_id = s.app_id AND l.kind = 'originalTransactionId' AND l.value = s.original_transaction_id)
            """
        ) { try $0.decode((UUID?, UUID?).self) }
        for (customer, linked) in owners {
            scope.changes.holdings(of: customer)
            scope.changes.holdings(of: linked)
        }
    }

    /// A UNION of the two index paths: an OR across them made PostgreSQL scan the whole table.
    func list(customer: UUID) async throws -> [Subscription] {
        try await rows(
            """
            SELECT \(unescaped: Self.columns) FROM \(unescaped: s).subscriptions s WHERE s.customer = \(customer)
            UNION
            SELECT \(unescaped: Self.columns) FROM \(unescaped: s).account_links l
            JOIN \(unescaped: s).subscriptions s ON s.app_id = l.app_id AND s.original_transaction_id = l.value
            WHERE l.customer = \(customer) AND l.kind = 'originalTransactionId'
            ORDER BY app_id, subscription_group_identifier, signed_date DESC
            """)
    }

    func list(appId: UUID, originalTransactionId: String) async throws -> [Subscription] {
        try await rows(
            """
            SELECT \(unescaped: Self.columns) FROM \(unescaped: s).subscriptions s
            WHERE s.app_id = \(appId) AND s.original_transaction_id = \(originalTransactionId)
            """)
    }

    private func rows(_ query: PostgresQuery) async throws -> [Subscription] {
        try await scope.all(query) { row in
            var cells = Cells(row)
            return try Self.subscription(&cells)
        }
    }

    /// A subscription from the next cells of a row, in the order of `typedColumns`.
    static func subscription(_ c: inout Cells) throws -> Subscription {
        Subscription(
            appId: try c.next(), environment: AppStoreEnvironment(rawValue: try c.next()), originalTransactionId: try c.next(),
            subscriptionGroupIdentifier: try c.next(), customer: try c.next(), status: Status(rawValue: Int32(try c.next(Int.self))),
            productId: try c.next(), latestTransactionId: try c.next(), purchaseDate: try c.next(), expiresDate: try c.next(),
            autoRenewStatus: try c.next(), autoRenewProductId: try c.next(), inBillingRetry: try c.next(), gracePeriodExpiresDate: try c.next(),
            offerType: try c.next(Int?.self).map { OfferType(rawValue: Int32($0)) }, offerIdentifier: try c.next(), price: try c.next(),
            currency: try c.next(), signedDate: try c.next(), offerPeriod: try c.next(),
            renewal: try c.next(String?.self).map { try JSONColumn.decode(RenewalTerms.self, from: $0, column: "subscriptions.renewal") },
            updatedAt: try c.next())
    }
}
