import Foundation
import Logging
import PostgresNIO
import StoregatePostgres

/// The metrics phase's data: `count` transactions in the bench tenant's schema, each with its lifecycle event
/// (a year of charges across 10 products, 20 storefronts, 5 currencies, periods of 30 or 365 days, a trial
/// in every 10th, a refund in every 50th; 12 transactions a series, each series a customer of the cohorts),
/// numbered after the tenant's events; then the daily rollup and the cohorts are made from them (`metrics
/// rebuild`'s statements).
enum MetricsFigures {
    static func seed(_ postgres: DatabaseClient, schema: String, appId: UUID, count: Int, logger: Logger) async throws {
        try await postgres.withConnection { @Sendable conn in
            try await conn.run("SET statement_timeout = 0", logger: logger)
            defer { Task { try? await conn.run("RESET statement_timeout", logger: logger) } }
            try await conn.run(
                """
                INSERT INTO \(unescaped: schema).transactions
                    (app_id, environment, transaction_id, original_transaction_id, product_id, product_type, purchase_date, expires_date,
                     signed_date, signed_transaction, payload)
                SELECT \(appId), 'Sandbox', (5000000000000000 + i)::text, (5000000000000000 + i / 12)::text, 'com.example.p' || (i % 10),
                       'Auto-Renewable Subscription', timestamptz '2025-11-01' + (i % 365) * interval '1 day',
                       timestamptz '2025-11-01' + (i % 365 + 30) * interval '1 day', now(), 'x', '{}'::jsonb
                FROM generate_series(1, \(count)) i
                """, logger: logger)
            let base = try await conn.first("SELECT last FROM \(unescaped: schema).event_sequence", as: Int64.self, logger: logger) ?? 0
            try await conn.run(
                """
                INSERT INTO \(unescaped: schema).events (sequence, id, type, app_id, environment, data)
                SELECT \(base) + i, gen_random_uuid(),
                       CASE WHEN i % 50 = 0 THEN 'purchase.refunded' WHEN i % 10 = 0 THEN 'subscription.trialStarted'
                            WHEN i % 12 = 1 THEN 'subscription.started' ELSE 'subscription.renewed' END,
                       \(appId), 'Sandbox',
                       jsonb_build_object(
                           'occurredAt', to_char(d AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                           'periodStart', to_char(d AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                           'expiresDate', to_char((d + (CASE WHEN i % 7 = 0 THEN 365 ELSE 30 END) * interval '1 day') AT TIME ZONE 'UTC',
                                                  'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                           'originalTransactionId', (5000000000000000 + i / 12)::text,
                           'productId', 'com.example.p' || (i % 10), 'storefront', 'S' || lpad((i % 20)::text, 2, '0'),
                           'periodType', CASE WHEN i % 10 = 0 THEN 'trial' ELSE 'normal' END,
                           'subscribed', CASE WHEN i % 12 = 1 THEN 'initialBuy' END,
                           'refundPercentage', CASE WHEN i % 50 = 0 THEN 100000 END,
                           'money', CASE WHEN i % 10 = 0 AND i % 50 <> 0 THEN NULL ELSE jsonb_build_object(
                               'price', CASE WHEN i % 50 = 0 THEN -990 ELSE 990 + (i % 5) * 1000 END,
                               'currency', (ARRAY['USD', 'EUR', 'JPY', 'GBP', 'BRL'])[1 + i % 5],
                               'estimatedProceeds', CASE WHEN i % 50 = 0 THEN -693 ELSE 693 + (i % 5) * 700 END) END)
                FROM generate_series(1, \(count)) i, LATERAL (SELECT timestamptz '2025-11-01' + (i % 365) * interval '1 day' + (i % 86400) * interval '1 second' AS d) x
                """, logger: logger)
            try await conn.run("UPDATE \(unescaped: schema).event_sequence SET last = last + \(count)", logger: logger)
            try await conn.run("ANALYZE \(unescaped: schema).transactions", logger: logger)
            try await conn.run("ANALYZE \(unescaped: schema).events", logger: logger)
        }
    }
}

extension Duration {
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
