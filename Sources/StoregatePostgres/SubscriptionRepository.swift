import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// Subscriptions in the tenant's schema.
struct SubscriptionRepository: SubscriptionStore {
    let scope: TenantScope
    var s: String { scope.sql }

    static let columns = """
        s.app_id, s.environment, s.original_transaction_id, s.subscription_group_identifier, s.customer, s.status, s.product_id, s.latest_transaction_id,
        s.purchase_date, s.expires_date, s.auto_renew_status, s.auto_renew_product_id, s.in_billing_retry, s.grace_period_expires_date, s.offer_type,
        s.offer_identifier, s.price, s.currency, s.signed_date, s.updated_at, s.offer_period, s.renewal::text
        """

    @discardableResult
    func upsert(_ s: Subscription) async throws -> Bool {
        try await scope.first(
            """
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
            RETURNING 1
            """, as: Int.self) != nil
    }

    func extend(appId: UUID, originalTransactionId: String, to date: Date) async throws {
        try await scope.run(
            """
            UPDATE \(unescaped: s).subscriptions SET expires_date = greatest(expires_date, \(date)), updated_at = now()
            WHERE app_id = \(appId) AND original_transaction_id = \(originalTransactionId)
            """)
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
        try await scope.all(
            query
        ) { row -> Subscription in
            let r = try row.decode(
                (
                    UUID, String, String, String?, UUID?, Int, String, String, Date?, Date?, Bool?, String?, Bool, Date?, Int?, String?, Int64?, String?, Date,
                    Date, String?, String?
                ).self)
            return Subscription(
                appId: r.0, environment: AppStoreEnvironment(rawValue: r.1), originalTransactionId: r.2, subscriptionGroupIdentifier: r.3, customer: r.4,
                status: Status(rawValue: Int32(r.5)), productId: r.6, latestTransactionId: r.7, purchaseDate: r.8, expiresDate: r.9, autoRenewStatus: r.10,
                autoRenewProductId: r.11, inBillingRetry: r.12, gracePeriodExpiresDate: r.13, offerType: r.14.map { OfferType(rawValue: Int32($0)) },
                offerIdentifier: r.15, price: r.16, currency: r.17, signedDate: r.18, offerPeriod: r.20,
                renewal: try r.21.map { try JSONColumn.decode(RenewalTerms.self, from: $0, column: "subscriptions.renewal") }, updatedAt: r.19)
        }
    }
}
