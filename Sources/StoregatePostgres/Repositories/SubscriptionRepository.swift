import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// Subscriptions in the tenant's schema.
struct SubscriptionRepository: SubscriptionStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    /// The columns a `Subscription` is read from, in the order `subscription(_:)` reads them.
    static let columns: [Column] = [
        Column("s.app_id", "uuid"), Column("s.environment", "text"), Column("s.original_transaction_id", "text"),
        Column("s.subscription_group_identifier", "text"), Column("s.customer", "uuid"), Column("s.status", "integer"), Column("s.product_id", "text"),
        Column("s.latest_transaction_id", "text"), Column("s.purchase_date", "timestamptz"), Column("s.expires_date", "timestamptz"),
        Column("s.auto_renew_status", "boolean"), Column("s.auto_renew_product_id", "text"), Column("s.in_billing_retry", "boolean"),
        Column("s.grace_period_expires_date", "timestamptz"), Column("s.offer_type", "integer"), Column("s.offer_identifier", "text"),
        Column("s.price", "bigint"), Column("s.currency", "text"), Column("s.signed_date", "timestamptz"), Column("s.offer_period", "text"),
        Column("s.renewal::text", "text", as: "renewal"), Column("s.billing_plan_type", "text"), Column("s.commitment::text", "text", as: "commitment"),
        Column("s.updated_at", "timestamptz"),
    ]

    /// The previous state is read in the same statement, so from the same snapshot: what was committed
    /// when it started (`MATERIALIZED`: before the upsert on Citus as well, which runs a statement's
    /// writing parts as steps of their own, the reads after them seeing their rows). A change another
    /// unit commits to the same subscription while this one runs is applied first or refused by the
    /// signed date, but this event's previous state does not show it.
    /// Another period's transaction signed later (a refund of an earlier month) changes nothing: the
    /// subscription's state is its latest period's. Its customer's holdings change (the row's customer after the write).
    /// Several subscriptions (each once at most) in one statement: a batch of notifications writes them so.
    @discardableResult
    func upsert(_ subscriptions: [Subscription]) async throws -> [SubscriptionChange?] {
        guard !subscriptions.isEmpty else { return [] }
        var sql = ValueRows(
            """
            WITH previous AS MATERIALIZED (
                SELECT app_id, environment, original_transaction_id, status, product_id, expires_date, auto_renew_status, commitment, renewal,
                       latest_transaction_id, auto_renew_product_id, grace_period_expires_date FROM \(schema).subscriptions
                WHERE (app_id, environment, original_transaction_id) IN (VALUES\u{20}
            """)
        sql.tuples(subscriptions) { row, s in
            row.add(s.appId)
            row.add(s.environment.rawValue)
            row.add(s.originalTransactionId)
        }
        sql.append(
            """
            )
            ), upserted AS (
            INSERT INTO \(schema).subscriptions AS s
                (app_id, environment, original_transaction_id, subscription_group_identifier, customer, status, product_id, latest_transaction_id,
                 purchase_date, expires_date, auto_renew_status, auto_renew_product_id, in_billing_retry, grace_period_expires_date, offer_type,
                 offer_identifier, price, currency, signed_date, offer_period, renewal, billing_plan_type, commitment)
            VALUES\u{20}
            """)
        var encoded: [(renewal: String?, commitment: String?)] = []
        for s in subscriptions { encoded.append((try s.renewal.map(JSONColumn.encode), try s.commitment.map(JSONColumn.encode))) }
        sql.tuples(Array(zip(subscriptions, encoded))) { row, item in
            let (s, json) = item
            row.add(s.appId)
            row.add(s.environment.rawValue)
            row.add(s.originalTransactionId)
            row.add(s.subscriptionGroupIdentifier)
            row.add(s.customer)
            row.add(Int(s.status.rawValue))
            row.add(s.productId)
            row.add(s.latestTransactionId)
            row.add(s.purchaseDate)
            row.add(s.expiresDate)
            row.add(s.autoRenewStatus)
            row.add(s.autoRenewProductId)
            row.add(s.inBillingRetry)
            row.add(s.gracePeriodExpiresDate)
            row.add(s.offerType.map { Int($0.rawValue) })
            row.add(s.offerIdentifier)
            row.add(s.price)
            row.add(s.currency)
            row.add(s.signedDate)
            row.add(s.offerPeriod)
            row.add(json.renewal, cast: "jsonb")
            row.add(s.billingPlanType?.rawValue)
            row.add(json.commitment, cast: "jsonb")
        }
        sql.append(
            """

            ON CONFLICT (app_id, environment, original_transaction_id) DO UPDATE SET
                subscription_group_identifier = coalesce(excluded.subscription_group_identifier, s.subscription_group_identifier),
                customer = coalesce(excluded.customer, s.customer), status = excluded.status, product_id = excluded.product_id,
                latest_transaction_id = excluded.latest_transaction_id, purchase_date = excluded.purchase_date, expires_date = excluded.expires_date,
                auto_renew_status = coalesce(excluded.auto_renew_status, s.auto_renew_status),
                auto_renew_product_id = coalesce(excluded.auto_renew_product_id, s.auto_renew_product_id), in_billing_retry = excluded.in_billing_retry,
                grace_period_expires_date = excluded.grace_period_expires_date, offer_type = excluded.offer_type, offer_identifier = excluded.offer_identifier,
                price = coalesce(excluded.price, s.price), currency = coalesce(excluded.currency, s.currency), signed_date = excluded.signed_date,
                offer_period = excluded.offer_period, renewal = coalesce(excluded.renewal, s.renewal),
                billing_plan_type = coalesce(excluded.billing_plan_type, s.billing_plan_type),
                commitment = CASE WHEN excluded.billing_plan_type IS NULL THEN s.commitment ELSE excluded.commitment END,
                updated_at = excluded.updated_at
            WHERE excluded.signed_date >= s.signed_date
                -- An earlier period's transaction (a month of a commitment refunded later) never replaces the latest: it was
                -- bought before it (an upgrade, bought after, does, whatever its expiry).
                AND NOT (excluded.latest_transaction_id <> s.latest_transaction_id AND coalesce(excluded.purchase_date < s.purchase_date, false))
            RETURNING app_id, environment, original_transaction_id, status, product_id, expires_date, auto_renew_status, commitment, renewal, customer,
                      latest_transaction_id, auto_renew_product_id, grace_period_expires_date
            )
            SELECT u.app_id, u.environment, u.original_transaction_id,
                   u.status, u.product_id, u.expires_date, u.auto_renew_status, \(Self.commitmentState("u")),
                   p.status, p.product_id, p.expires_date, p.auto_renew_status, \(Self.commitmentState("p")), u.customer,
                   \(Self.renewalState("u")), \(Self.renewalState("p"))
            FROM upserted u
            LEFT JOIN previous p ON (p.app_id, p.environment, p.original_transaction_id) = (u.app_id, u.environment, u.original_transaction_id)
            """)
        var changes: [SubscriptionKey: SubscriptionChange] = [:]
        for (key, change, customer) in try await scope.prepared(
            sql.query,
            { row -> (SubscriptionKey, SubscriptionChange, UUID?) in
                let (appId, environment, originalTransactionId) = try row.decode((UUID, String, String).self)
                let (change, customer) = try Self.change(row)
                return (SubscriptionKey(appId: appId, environment: environment, originalTransactionId: originalTransactionId), change, customer)
            })
        {
            changes[key] = change
            scope.changes.holdings(of: customer)
        }
        return subscriptions.map {
            changes[SubscriptionKey(appId: $0.appId, environment: $0.environment.rawValue, originalTransactionId: $0.originalTransactionId)]
        }
    }

    private struct SubscriptionKey: Hashable {
        let appId: UUID
        let environment: String
        let originalTransactionId: String
    }

    /// A change as `upsert` returns it (after the row's three key columns), and the row's customer.
    private static func change(_ row: PostgresRow) throws -> (SubscriptionChange, UUID?) {
        let r = try row.decode(
            (
                UUID, String, String, Int32, String, Date?, Bool?, Int32?, Double?, Bool?, Int32?, String?, Date?, Bool?, Int32?, Double?, Bool?, UUID?,
                String?, String?, Date?, Int64?, Int32?, Int32?, String?, String?, Date?, Int64?, Int32?, Int32?
            ).self)
        let previous = r.10.map {
            SubscriptionChange.State(
                status: Status(rawValue: $0), productId: r.11 ?? "", expiresDate: r.12, autoRenewStatus: r.13, billingPeriodNumber: r.14,
                commitmentExpiresDate: r.15.map(Date.init(timeIntervalSinceReferenceDate:)), commitmentAutoRenewStatus: r.16,
                renewal: .init(
                    latestTransactionId: r.24, autoRenewProductId: r.25, gracePeriodExpiresDate: r.26, renewalPrice: r.27,
                    priceIncreaseStatus: r.28.map(PriceIncreaseStatus.init(rawValue:)), expirationIntent: r.29.map(ExpirationIntent.init(rawValue:))))
        }
        let current = SubscriptionChange.State(
            status: Status(rawValue: r.3), productId: r.4, expiresDate: r.5, autoRenewStatus: r.6, billingPeriodNumber: r.7,
            commitmentExpiresDate: r.8.map(Date.init(timeIntervalSinceReferenceDate:)), commitmentAutoRenewStatus: r.9,
            renewal: .init(
                latestTransactionId: r.18, autoRenewProductId: r.19, gracePeriodExpiresDate: r.20, renewalPrice: r.21,
                priceIncreaseStatus: r.22.map(PriceIncreaseStatus.init(rawValue:)), expirationIntent: r.23.map(ExpirationIntent.init(rawValue:))))
        return (SubscriptionChange(previous: previous, current: current), r.17)
    }

    /// What lifecycle events read of the row `alias` beside its state (`SubscriptionChange.State.Renewal`).
    static func renewalState(_ alias: String) -> String {
        """
        \(alias).latest_transaction_id, \(alias).auto_renew_product_id, \(alias).grace_period_expires_date, (\(alias).renewal ->> 'renewalPrice')::bigint,
        (\(alias).renewal ->> 'priceIncreaseStatus')::int, (\(alias).renewal ->> 'expirationIntent')::int
        """
    }

    /// The commitment's part of a change's state, from the row `alias`: the month billed, the commitment's
    /// end (as `Commitment` JSON keeps a date: seconds since 2001) and whether it renews then.
    static func commitmentState(_ alias: String) -> String {
        """
        (\(alias).commitment ->> 'billingPeriodNumber')::int, (\(alias).commitment ->> 'expiresDate')::float8,
        (\(alias).renewal #>> '{commitment,autoRenewStatus}')::boolean
        """
    }

    /// The holdings of the subscription's customer, and of the customer its `originalTransactionId` is
    /// linked to, change.
    func extend(appId: UUID, originalTransactionId: String, to date: Date) async throws -> Bool {
        let owners = try await scope.all(
            """
            UPDATE \(unescaped: schema).subscriptions s SET expires_date = \(date), updated_at = now()
            WHERE app_id = \(appId) AND original_transaction_id = \(originalTransactionId) AND (expires_date IS NULL OR expires_date < \(date))
            RETURNING customer, (SELECT customer FROM \(unescaped: schema).account_links l
                                 WHERE l.app_id = s.app_id AND l.kind = 'originalTransactionId' AND l.value = s.original_transaction_id)
            """
        ) { try $0.decode((UUID?, UUID?).self) }
        for (customer, linked) in owners {
            scope.changes.holdings(of: customer)
            scope.changes.holdings(of: linked)
        }
        return !owners.isEmpty
    }

    /// A UNION of the two index paths: an OR across them made PostgreSQL scan the whole table.
    func list(customer: UUID) async throws -> [Subscription] {
        try await rows(
            """
            SELECT \(unescaped: Self.columns.selected) FROM \(unescaped: schema).subscriptions s WHERE s.customer = \(customer)
            UNION
            SELECT \(unescaped: Self.columns.selected) FROM \(unescaped: schema).account_links l
            JOIN \(unescaped: schema).subscriptions s ON s.app_id = l.app_id AND s.original_transaction_id = l.value
            WHERE l.customer = \(customer) AND l.kind = 'originalTransactionId'
            ORDER BY app_id, subscription_group_identifier, signed_date DESC
            """)
    }

    func list(appId: UUID, originalTransactionId: String) async throws -> [Subscription] {
        try await rows(
            """
            SELECT \(unescaped: Self.columns.selected) FROM \(unescaped: schema).subscriptions s
            WHERE s.app_id = \(appId) AND s.original_transaction_id = \(originalTransactionId)
            """)
    }

    /// One statement. The refunds and consumption requests are the customer's in the app when one is
    /// linked, else the subscription's: the statement is planned with its values, so the `CASE` folds to
    /// one side and its index is used (on the customer, or on the original transaction: tenant migration
    /// 18). A renewal with a promotional offer is a transaction whose `offerType` is 2, with a retention offer 5.
    func retentionFacts(appId: UUID, environment: AppStoreEnvironment, originalTransactionId: String, customer: UUID?) async throws -> RetentionFacts {
        let (env, original) = (environment.rawValue, originalTransactionId)
        let row = try await scope.all(
            """
            SELECT coalesce((SELECT app_account_token FROM \(unescaped: schema).customers WHERE id = \(customer)),
                            (SELECT app_account_token FROM \(unescaped: schema).transactions
                             WHERE app_id = \(appId) AND environment = \(env) AND original_transaction_id = \(original) AND app_account_token IS NOT NULL
                             ORDER BY purchase_date DESC NULLS LAST LIMIT 1)),
                   (SELECT min(purchase_date) FROM \(unescaped: schema).transactions
                    WHERE app_id = \(appId) AND environment = \(env) AND original_transaction_id = \(original)),
                   (SELECT count(*) FILTER (WHERE payload ->> 'offerType' = '2') FROM \(unescaped: schema).transactions
                    WHERE app_id = \(appId) AND environment = \(env) AND original_transaction_id = \(original)),
                   (SELECT count(*) FILTER (WHERE payload ->> 'offerType' = '5') FROM \(unescaped: schema).transactions
                    WHERE app_id = \(appId) AND environment = \(env) AND original_transaction_id = \(original)),
                   (SELECT count(*) FROM \(unescaped: schema).refund_outcomes WHERE app_id = \(appId) AND outcome = 'REFUND'
                    AND CASE WHEN \(customer)::uuid IS NULL THEN original_transaction_id = \(original) ELSE customer = \(customer) END),
                   (SELECT count(*) FROM \(unescaped: schema).consumption_requests WHERE app_id = \(appId)
                    AND CASE WHEN \(customer)::uuid IS NULL THEN original_transaction_id = \(original) ELSE customer = \(customer) END)
            """
        ) { try $0.decode((UUID?, Date?, Int64, Int64, Int64, Int64).self) }.first
        return RetentionFacts(
            appAccountToken: row?.0, firstPurchaseDate: row?.1, promotionalOffersRedeemed: Int(row?.2 ?? 0), retentionOffersRedeemed: Int(row?.3 ?? 0),
            refunds: Int(row?.4 ?? 0), consumptionRequests: Int(row?.5 ?? 0))
    }

    private func rows(_ query: PostgresQuery) async throws -> [Subscription] {
        try await scope.all(query) { row in
            var cells = Cells(row)
            return try Self.subscription(&cells)
        }
    }

    /// A subscription from the next cells of a row, each read by its name in `columns`.
    static func subscription(_ c: inout Cells) throws -> Subscription {
        Subscription(
            appId: try c.next("app_id"), environment: AppStoreEnvironment(rawValue: try c.next("environment")),
            originalTransactionId: try c.next("original_transaction_id"), subscriptionGroupIdentifier: try c.next("subscription_group_identifier"),
            customer: try c.next("customer"), status: Status(rawValue: Int32(try c.next("status", Int.self))), productId: try c.next("product_id"),
            latestTransactionId: try c.next("latest_transaction_id"), purchaseDate: try c.next("purchase_date"), expiresDate: try c.next("expires_date"),
            autoRenewStatus: try c.next("auto_renew_status"), autoRenewProductId: try c.next("auto_renew_product_id"),
            inBillingRetry: try c.next("in_billing_retry"), gracePeriodExpiresDate: try c.next("grace_period_expires_date"),
            offerType: try c.next("offer_type", Int?.self).map { OfferType(rawValue: Int32($0)) }, offerIdentifier: try c.next("offer_identifier"),
            price: try c.next("price"), currency: try c.next("currency"), signedDate: try c.next("signed_date"), offerPeriod: try c.next("offer_period"),
            renewal: try c.next("renewal", String?.self).map { try JSONColumn.decode(RenewalTerms.self, from: $0, column: "subscriptions.renewal") },
            billingPlanType: try c.next("billing_plan_type", String?.self).map(BillingPlanType.init(rawValue:)),
            commitment: try c.next("commitment", String?.self).map { try JSONColumn.decode(Commitment.self, from: $0, column: "subscriptions.commitment") },
            updatedAt: try c.next("updated_at"))
    }
}

extension PostgresTenantUnit {
    var subscriptions: any SubscriptionStore { SubscriptionRepository(scope: scope) }
}
