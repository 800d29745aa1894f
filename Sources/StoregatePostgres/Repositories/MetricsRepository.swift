import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// The daily figures in the tenant's schema (tenant migration 24), added to as events are appended
/// (`EventRepository.append`, `MetricsRollup`).
struct MetricsRepository: MetricsStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    /// One statement: every key's rows summed per day and currency. Each absent filter is a no-op test.
    func days(through: Date, filter: MetricsFilter) async throws -> [MetricsDay] {
        let products = filter.productIds ?? []
        return try await scope.all(
            """
            SELECT day::timestamptz, currency, \(unescaped: MetricsRollup.columns.map { "sum(\($0))::bigint" }.joined(separator: ", "))
            FROM \(unescaped: schema).metrics_daily
            WHERE day <= (\(through)::timestamptz AT TIME ZONE 'UTC')::date
              AND (\(filter.appId)::uuid IS NULL OR app_id = \(filter.appId))
              AND (\(filter.environment?.rawValue)::text IS NULL OR environment = \(filter.environment?.rawValue))
              AND (\(filter.productIds == nil) OR product_id = ANY(\(products)::text[]))
              AND (\(filter.storefront)::text IS NULL OR storefront = \(filter.storefront))
            GROUP BY day, currency ORDER BY day, currency
            """
        ) { row in
            let cells = row.makeRandomAccess()
            let day = try cells[0].decode(Date.self)
            let currency = try cells[1].decode(String.self)
            let values = try (2..<(2 + MetricsRollup.columns.count)).map { try cells[$0].decode(Int64.self) }
            return MetricsDay(day: day, currency: currency, values: values)
        }
    }

    /// Two statements over every stored event, with no statement timeout: the unit's own deadline (a
    /// schema change's, `MetricsService.rebuild`) bounds them.
    func rebuild() async throws {
        try await scope.all("SET LOCAL statement_timeout = 0") { _ in () }
        try await scope.all("DELETE FROM \(unescaped: schema).metrics_daily") { _ in () }
        let events = "(SELECT type, app_id, environment, data FROM \(schema).events)"
        try await scope.all(PostgresQuery(unsafeSQL: MetricsRollup.insert(into: schema, MetricsRollup.rows(from: events)))) { _ in () }
    }
}

extension PostgresTenantUnit {
    var metrics: any MetricsStore { MetricsRepository(scope: scope) }
}
