import Storegate

/// How lifecycle events become monthly cohorts (tenant migration 25), in SQL written once for the two
/// places that use it: appending events (the events just appended) and `metrics rebuild` (every stored
/// event), so the two agree to the milliunit.
///
/// A member's cohort is the month of its first purchase, and a purchase delivered late can be earlier than
/// the one that made the cohort; so the cohorts are kept by taking away what a member's months gave and
/// adding what they give after the events, in two statements:
/// 1. `record(from:)` takes away from `metrics_cohorts` what the touched months gave (every month of a member
///    whose first purchase is new or moved; else the months the events touch), adds the events' facts to
///    `metrics_cohort_members` and `metrics_member_months`, and returns the touched months: all the
///    statement's parts read the tables as they were before it;
/// 2. `add(touched:)` adds what those months give now.
/// Appends are one at a time per tenant (the event numbering row stays locked until commit), and so is a
/// rebuild, which takes that lock first.
enum CohortRollup {
    /// A timestamptz expression's calendar month (UTC) as a date.
    static func month(_ timestamp: String) -> String { "date_trunc('month', (\(timestamp)) AT TIME ZONE 'UTC')::date" }

    /// The first statement, over `source` (a relation with `type`, `app_id`, `environment`, `customer` and
    /// `data`); returns rows of app, environment, member and month (text, '' for every month).
    static func record(into schema: String, from source: String) -> String {
        let d = "e.data"
        let periodMonths = { (from: String) in
            "generate_series(\(from), date_trunc('month', (f.period_end AT TIME ZONE 'UTC') - interval '1 microsecond'), interval '1 month')"
        }
        let key = "app_id, environment, member"
        return """
            WITH facts AS (
                SELECT e.app_id, coalesce(e.environment, '') AS environment,
                       coalesce(e.customer::text, 'series:' || (\(d) ->> 'originalTransactionId')) AS member,
                       e.type IN ('purchase.refunded', 'purchase.refundReversed') AS refund,
                       CASE e.type WHEN 'purchase.refunded' THEN -1 ELSE 1 END AS sign,
                       coalesce((\(d) ->> 'refundPercentage')::int, 100000) = 100000 AS whole,
                       (\(d) ->> 'occurredAt')::timestamptz AS occurred,
                       (\(d) ->> 'periodStart')::timestamptz AS period_start, (\(d) ->> 'expiresDate')::timestamptz AS period_end,
                       coalesce(\(d) ->> 'productId', '') AS product_id, coalesce(\(d) ->> 'storefront', '') AS storefront,
                       coalesce(\(d) #>> '{money,currency}', '') AS currency,
                       coalesce((\(d) #>> '{money,price}')::bigint, 0) AS price,
                       coalesce((\(d) #>> '{money,estimatedProceeds}')::bigint, 0) AS proceeds
                FROM \(source) e
                WHERE e.type IN (\(MetricsRollup.sqlList(LifecycleEvents.priced))) AND \(d) ? 'money' AND e.app_id IS NOT NULL
                  AND NOT coalesce((\(d) ->> 'familyShared')::boolean, false)
            ), months AS (
                -- a charge: in the month it was made
                SELECT \(key), \(month("f.occurred")) AS month, '' AS currency, 0 AS periods, 1 AS charges, 0::bigint AS revenue, 0::bigint AS proceeds
                FROM facts f WHERE NOT f.refund
                -- its money, and a refund's, in the month of each
                UNION ALL
                SELECT \(key), \(month("f.occurred")), f.currency, 0, 0, f.price, f.proceeds FROM facts f WHERE f.currency <> ''
                -- a subscription period: in every month it runs
                UNION ALL
                SELECT \(key), m::date, '', 1, 0, 0, 0
                FROM facts f, \(periodMonths("date_trunc('month', f.period_start AT TIME ZONE 'UTC')")) m
                WHERE NOT f.refund AND f.period_end > f.period_start
                -- a whole refund of a period: not in the months after the refund's (a reversal puts them back)
                UNION ALL
                SELECT \(key), m::date, '', f.sign, 0, 0, 0
                FROM facts f,
                     \(periodMonths("greatest(date_trunc('month', f.period_start AT TIME ZONE 'UTC'), date_trunc('month', f.occurred AT TIME ZONE 'UTC') + interval '1 month')")) m
                WHERE f.refund AND f.whole AND f.period_end > f.period_start
            ), grouped AS (
                SELECT \(key), month, currency, sum(periods) AS periods, sum(charges) AS charges, sum(revenue) AS revenue, sum(proceeds) AS proceeds
                FROM months GROUP BY 1, 2, 3, 4, 5
            ), firsts AS (
                SELECT DISTINCT ON (\(key)) \(key), occurred AS first_purchase, product_id, storefront
                FROM facts WHERE NOT refund ORDER BY \(key), occurred, product_id, storefront
            ), moved AS (
                SELECT f.* FROM firsts f
                LEFT JOIN \(schema).metrics_cohort_members m USING (\(key))
                WHERE m.member IS NULL OR (f.first_purchase, f.product_id, f.storefront) < (m.first_purchase, m.product_id, m.storefront)
            ), touched AS (
                SELECT \(key), NULL::date AS month FROM moved
                UNION
                SELECT g.app_id, g.environment, g.member, g.month FROM grouped g
                WHERE NOT EXISTS (SELECT 1 FROM moved v WHERE (v.app_id, v.environment, v.member) = (g.app_id, g.environment, g.member))
            ), taken AS (
                \(add(into: schema, touched: "touched", sign: -1))
                RETURNING 1
            ), members AS (
                INSERT INTO \(schema).metrics_cohort_members (\(key), first_purchase, product_id, storefront)
                SELECT \(key), first_purchase, product_id, storefront FROM moved
                ON CONFLICT (\(key)) DO UPDATE SET
                    first_purchase = excluded.first_purchase, product_id = excluded.product_id, storefront = excluded.storefront
                WHERE (excluded.first_purchase, excluded.product_id, excluded.storefront)
                    < (metrics_cohort_members.first_purchase, metrics_cohort_members.product_id, metrics_cohort_members.storefront)
                RETURNING 1
            ), member_months AS (
                INSERT INTO \(schema).metrics_member_months (\(key), month, currency, periods, charges, revenue, proceeds)
                SELECT \(key), month, currency, periods, charges, revenue, proceeds FROM grouped
                ON CONFLICT (\(key), month, currency) DO UPDATE SET
                    periods = metrics_member_months.periods + excluded.periods, charges = metrics_member_months.charges + excluded.charges,
                    revenue = metrics_member_months.revenue + excluded.revenue, proceeds = metrics_member_months.proceeds + excluded.proceeds
                RETURNING 1
            )
            SELECT app_id::text, environment, member, coalesce(month::text, '') FROM touched
            """
    }

    static let columns = ["customers", "subscribed", "active", "revenue", "proceeds"]

    /// Adds to `metrics_cohorts` what the months in `touched` (a relation of app_id, environment, member and
    /// month, NULL for every month of the member and the member itself) give, times `sign`: a member counts
    /// once in its cohort's first month; a month counts it subscribed when a period runs in it, active when
    /// subscribed or charged, and adds its money.
    ///
    /// A batch's few members are each looked up by their key (`LIMIT 1` keeps the lookup per row): joined,
    /// the planner guessed 200 touched rows and hashed every member of the app, a scan that grew with the
    /// app (12,000 members read for 29 touched in the ingestion bench). A rebuild (`everyMember`) joins.
    static func add(into schema: String, touched: String, sign: Int, everyMember: Bool = false) -> String {
        let cohort = month("m.first_purchase")
        let key = "(m.app_id, m.environment, m.member) = (t.app_id, t.environment, t.member)"
        let joined =
            everyMember
            ? "\(touched) t JOIN \(schema).metrics_cohort_members m ON \(key)"
            : "\(touched) t CROSS JOIN LATERAL (SELECT * FROM \(schema).metrics_cohort_members m WHERE \(key) LIMIT 1) m"
        return """
            INSERT INTO \(schema).metrics_cohorts (cohort, month, app_id, environment, product_id, storefront, currency, \(columns.joined(separator: ", ")))
            SELECT cohort, month, app_id, environment, product_id, storefront, currency,
                   \(columns.map { "\(sign) * sum(\($0))" }.joined(separator: ", "))
            FROM (
                SELECT \(cohort) AS cohort, \(cohort) AS month, m.app_id, m.environment, m.product_id, m.storefront, '' AS currency,
                       1 AS customers, 0 AS subscribed, 0 AS active, 0::bigint AS revenue, 0::bigint AS proceeds
                FROM \(joined) WHERE t.month IS NULL
                UNION ALL
                SELECT \(cohort), mm.month, m.app_id, m.environment, m.product_id, m.storefront, mm.currency, 0,
                       (mm.currency = '' AND mm.periods > 0)::int, (mm.currency = '' AND (mm.periods > 0 OR mm.charges > 0))::int, mm.revenue, mm.proceeds
                FROM \(joined)
                JOIN \(schema).metrics_member_months mm ON (mm.app_id, mm.environment, mm.member) = (m.app_id, m.environment, m.member)
                     AND (t.month IS NULL OR mm.month = t.month)
                WHERE mm.month >= \(cohort)
            ) c
            GROUP BY 1, 2, 3, 4, 5, 6, 7
            ON CONFLICT (cohort, month, app_id, environment, product_id, storefront, currency) DO UPDATE SET
                \(columns.map { "\($0) = metrics_cohorts.\($0) + excluded.\($0)" }.joined(separator: ", "))
            """
    }

    /// `touched` rows sent back as parameters: the relation `add` reads in the second statement.
    static let touchedParameters =
        "(SELECT a::uuid AS app_id, e AS environment, m AS member, nullif(mo, '')::date AS month FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u(a, e, m, mo))"
}
