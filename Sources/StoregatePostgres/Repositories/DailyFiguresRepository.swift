import Foundation
import PostgresNIO
import Storegate

/// A tenant's figures per day, read from its transactions and refund outcomes in one statement.
struct DailyFiguresRepository: DailyFiguresStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    func daily(days: Int) async throws -> [DailyFigures] {
        try await scope.all(
            """
            WITH days AS (
                SELECT day FROM generate_series(
                    date_trunc('day', now() AT TIME ZONE 'UTC') - make_interval(days => \(Int32(days - 1))), date_trunc('day', now() AT TIME ZONE 'UTC'),
                    interval '1 day') AS day
            ),
            bought AS (
                SELECT date_trunc('day', t.purchase_date AT TIME ZONE 'UTC') AS day,
                       count(*) FILTER (WHERE t.transaction_id = t.original_transaction_id) AS purchases,
                       count(*) FILTER (WHERE t.transaction_id <> t.original_transaction_id) AS renewals
                FROM \(unescaped: schema).transactions t
                WHERE t.purchase_date >= (SELECT min(day) FROM days) AT TIME ZONE 'UTC'
                GROUP BY 1
            ),
            refunded AS (
                SELECT date_trunc('day', coalesce(o.revocation_date, o.signed_date, o.recorded_at) AT TIME ZONE 'UTC') AS day, count(*) AS refunds
                FROM \(unescaped: schema).refund_outcomes o
                WHERE o.outcome = 'REFUND' AND coalesce(o.revocation_date, o.signed_date, o.recorded_at) >= (SELECT min(day) FROM days) AT TIME ZONE 'UTC'
                GROUP BY 1
            ),
            ends AS (SELECT day, least((day + interval '1 day') AT TIME ZONE 'UTC', now()) AS instant FROM days),
            active AS (
                SELECT e.day, count(DISTINCT t.original_transaction_id) AS subscriptions
                FROM ends e JOIN \(unescaped: schema).transactions t
                  ON t.product_type = 'Auto-Renewable Subscription' AND t.purchase_date <= e.instant AND t.expires_date > e.instant
                 AND (t.revocation_date IS NULL OR t.revocation_date > e.instant)
                WHERE t.expires_date >= (SELECT min(day) FROM days) AT TIME ZONE 'UTC'
                GROUP BY e.day
            )
            SELECT d.day AT TIME ZONE 'UTC', coalesce(b.purchases, 0)::bigint, coalesce(b.renewals, 0)::bigint, coalesce(r.refunds, 0)::bigint,
                   coalesce(a.subscriptions, 0)::bigint
            FROM days d LEFT JOIN bought b ON b.day = d.day LEFT JOIN refunded r ON r.day = d.day LEFT JOIN active a ON a.day = d.day
            ORDER BY d.day
            """
        ) { row in
            let r = try row.decode((Date, Int, Int, Int, Int).self)
            return DailyFigures(day: r.0, purchases: r.1, renewals: r.2, refunds: r.3, activeSubscriptions: r.4)
        }
    }
}

extension PostgresTenantUnit {
    var figures: any DailyFiguresStore { DailyFiguresRepository(scope: scope) }
}
