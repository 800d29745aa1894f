import Storegate

/// How lifecycle events become `metrics_daily` rows (tenant migration 24), in SQL, written once for the
/// two places that use it: the statement that appends events (which adds the rows of the events it
/// inserts) and the rebuild (which adds the rows of every stored event): the same expression over the
/// same facts, so the two agree to the milliunit.
///
/// Each lifecycle event gives up to three rows (docs/API.md, "Metrics"):
/// - on the day it happened: its counts, and the money of a charge or a refund;
/// - a subscription's charge: +1 active (or trial) and + its monthly price to MRR on the day its period
///   starts, and the same taken away on the day it ends; a refund of a running period, an upgrade that
///   replaces one and an extension move that end;
/// all grouped, so one statement adds each key once.
enum MetricsRollup {
    static let columns = [
        "new_subscriptions", "reactivations", "trial_starts", "trial_conversions", "renewals", "purchases", "cancellations", "billing_issues",
        "churned_voluntary", "churned_billing", "churned_other", "refunds", "paid_charges", "revenue", "proceeds", "refunded", "refunded_proceeds",
        "active_change", "trials_change", "mrr_change",
    ]

    /// `SELECT` of grouped rows from `source`, a relation with `type`, `app_id`, `environment` and `data`
    /// (jsonb) columns.
    static func rows(from source: String) -> String {
        let utc = { (ts: String) in "((\(ts))::timestamptz AT TIME ZONE 'UTC')::date" }
        let d = "e.data"
        let occurred = utc("\(d) ->> 'occurredAt'")
        let price = "coalesce((\(d) #>> '{money,price}')::bigint, 0)"
        let isCharge = "(\(d) ? 'money' AND e.type NOT IN ('purchase.refunded', 'purchase.refundReversed'))"
        let isRefund = "(e.type IN ('purchase.refunded', 'purchase.refundReversed'))"
        let period = "(\(isCharge) AND \(d) ? 'periodStart' AND \(d) ? 'expiresDate' AND NOT coalesce((\(d) ->> 'familyShared')::boolean, false))"
        let trial = "coalesce(\(d) ->> 'periodType' = 'trial', false)"
        /// A period's price per month (30.4375 days), in milliunits, rounded once: added and taken away alike.
        func monthly(_ amount: String, from start: String, to end: String) -> String {
            "round(\(amount)::numeric * 2629800 / greatest(extract(epoch FROM (\(end))::timestamptz - (\(start))::timestamptz), 1))::bigint"
        }
        let mrr = monthly(price, from: "\(d) ->> 'periodStart'", to: "\(d) ->> 'expiresDate'")
        let replaced = "\(d) -> 'replacedPeriod'"
        let replacedMRR = monthly(
            "coalesce((\(replaced) ->> 'price')::bigint, 0)", from: "\(replaced) ->> 'periodStart'", to: "\(replaced) ->> 'expiresDate'")
        // A whole refund of a running period ends it at the refund; its MRR goes with it (a partial refund
        // keeps it: the period runs on).
        let running = "(\(isRefund) AND \(d) ? 'periodStart' AND (\(d) ->> 'expiresDate')::timestamptz > (\(d) ->> 'occurredAt')::timestamptz)"
        let whole = "(coalesce((\(d) ->> 'refundPercentage')::int, 100000) = 100000)"
        let refundSign = "(CASE e.type WHEN 'purchase.refunded' THEN -1 ELSE 1 END)"
        let refundMRR = "CASE WHEN \(whole) THEN \(monthly("abs(\(price))", from: "\(d) ->> 'periodStart'", to: "\(d) ->> 'expiresDate'")) ELSE 0 END"
        let zeros = Array(repeating: "0", count: 17).joined(separator: ", ")
        return """
            SELECT r.day, e.app_id, coalesce(e.environment, ''), coalesce(\(d) ->> 'productId', ''), coalesce(\(d) ->> 'storefront', ''),
                   coalesce(\(d) #>> '{money,currency}', ''), \(columns.map { "sum(r.\($0))" }.joined(separator: ", "))
            FROM \(source) e
            CROSS JOIN LATERAL (VALUES
                (\(occurred),
                 coalesce(\(d) ->> 'subscribed' = 'initialBuy', false)::int, coalesce(\(d) ->> 'subscribed' = 'resubscribe', false)::int,
                 (e.type = 'subscription.trialStarted')::int, (e.type = 'subscription.trialConverted')::int,
                 (\(d) ? 'periodStart' AND NOT \(d) ? 'subscribed' AND \(isCharge))::int,
                 (e.type IN ('purchase.oneTime', 'purchase.consumable'))::int,
                 (e.type = 'subscription.renewalCancelled')::int, (e.type = 'subscription.billingIssue')::int,
                 coalesce(e.type = 'subscription.expired' AND \(d) ->> 'reason' = 'voluntary', false)::int,
                 coalesce(e.type = 'subscription.expired' AND \(d) ->> 'reason' = 'billingError', false)::int,
                 (e.type = 'subscription.expired' AND coalesce(\(d) ->> 'reason', '') NOT IN ('voluntary', 'billingError'))::int,
                 (e.type = 'purchase.refunded')::int - (e.type = 'purchase.refundReversed')::int,
                 (\(isCharge) AND \(price) > 0)::int,
                 CASE WHEN \(isCharge) THEN \(price) ELSE 0 END,
                 CASE WHEN \(isCharge) THEN coalesce((\(d) #>> '{money,estimatedProceeds}')::bigint, 0) ELSE 0 END,
                 CASE WHEN \(isRefund) THEN \(price) ELSE 0 END,
                 CASE WHEN \(isRefund) THEN coalesce((\(d) #>> '{money,estimatedProceeds}')::bigint, 0) ELSE 0 END,
                 CASE WHEN \(running) THEN \(refundSign) ELSE 0 END::bigint, 0::bigint,
                 CASE WHEN \(running) THEN \(refundSign) * \(refundMRR) ELSE 0 END::bigint),
                -- a charge's period: counted from the day it starts
                (CASE WHEN \(period) THEN \(utc("\(d) ->> 'periodStart'")) END, \(zeros),
                 (NOT \(trial))::int, \(trial)::int, CASE WHEN \(trial) THEN 0 ELSE \(mrr) END),
                -- to the day it ends
                (CASE WHEN \(period) THEN \(utc("\(d) ->> 'expiresDate'")) END, \(zeros),
                 -(NOT \(trial))::int, -(\(trial))::int, CASE WHEN \(trial) THEN 0 ELSE -\(mrr) END),
                -- a refunded running period counts again from its end (undoing the end it no longer has)
                (CASE WHEN \(running) THEN \(utc("\(d) ->> 'expiresDate'")) END, \(zeros),
                 -\(refundSign), 0, -\(refundSign) * \(refundMRR)),
                -- an upgrade ends the period it replaces now, not at that period's end
                (CASE WHEN \(d) ? 'replacedPeriod' THEN \(occurred) END, \(zeros), -1, 0, -\(replacedMRR)),
                (CASE WHEN \(d) ? 'replacedPeriod' THEN \(utc("\(replaced) ->> 'expiresDate'")) END, \(zeros), 1, 0, \(replacedMRR)),
                -- an extension moves the end later, by extendedByDays
                (CASE WHEN e.type = 'subscription.extended' THEN
                    \(utc("(\(d) ->> 'expiresDate')::timestamptz - make_interval(days => (\(d) ->> 'extendedByDays')::int)")) END, \(zeros), 1, 0, 0),
                (CASE WHEN e.type = 'subscription.extended' THEN \(utc("\(d) ->> 'expiresDate'")) END, \(zeros), -1, 0, 0)
            ) AS r(day, \(columns.joined(separator: ", ")))
            WHERE r.day IS NOT NULL AND e.type IN (\(sqlList(LifecycleEvents.kinds)))
            GROUP BY 1, 2, 3, 4, 5, 6
            """
    }

    /// Event types as an SQL list of literals (the server's own constants).
    static func sqlList(_ kinds: some Sequence<Event.Kind>) -> String { kinds.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ") }

    /// Adds grouped rows to `metrics_daily` (each key once: the rows are grouped).
    static func insert(into schema: String, _ select: String) -> String {
        """
        INSERT INTO \(schema).metrics_daily (day, app_id, environment, product_id, storefront, currency, \(columns.joined(separator: ", ")))
        \(select)
        ON CONFLICT (day, app_id, environment, product_id, storefront, currency) DO UPDATE SET
            \(columns.map { "\($0) = metrics_daily.\($0) + excluded.\($0)" }.joined(separator: ", "))
        """
    }
}
