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

    /// The cohorts' months (`metrics_cohorts`) of the cohorts from `from` to `through` and of every cohort in
    /// the months from `from` to `through`, summed per cohort, month and currency. One statement.
    func cohorts(from: Date, through: Date, filter: MetricsFilter) async throws -> [CohortMonth] {
        let products = filter.productIds ?? []
        return try await scope.all(
            """
            SELECT cohort::timestamptz, month::timestamptz, currency, \(unescaped: CohortRollup.columns.map { "sum(\($0))::bigint" }.joined(separator: ", "))
            FROM \(unescaped: schema).metrics_cohorts
            WHERE (cohort BETWEEN date_trunc('month', \(from)::timestamptz AT TIME ZONE 'UTC')::date AND (\(through)::timestamptz AT TIME ZONE 'UTC')::date
                   OR month BETWEEN date_trunc('month', \(from)::timestamptz AT TIME ZONE 'UTC')::date AND (\(through)::timestamptz AT TIME ZONE 'UTC')::date)
              AND (\(filter.appId)::uuid IS NULL OR app_id = \(filter.appId))
              AND (\(filter.environment?.rawValue)::text IS NULL OR environment = \(filter.environment?.rawValue))
              AND (\(filter.productIds == nil) OR product_id = ANY(\(products)::text[]))
              AND (\(filter.storefront)::text IS NULL OR storefront = \(filter.storefront))
            GROUP BY cohort, month, currency
            HAVING \(unescaped: CohortRollup.columns.map { "sum(\($0)) <> 0" }.joined(separator: " OR "))
            ORDER BY cohort, month, currency
            """
        ) { row in
            let r = try row.decode((Date, Date, String, Int64, Int64, Int64, Int64, Int64).self)
            return CohortMonth(cohort: r.0, month: r.1, currency: r.2, customers: r.3, subscribed: r.4, active: r.5, netRevenue: r.6, netProceeds: r.7)
        }
    }

    /// Adds the priced lifecycle events among those just appended (by id) to the cohorts: two statements
    /// (`CohortRollup`), the second given the months the first touched.
    func recordCohorts(eventIds: [UUID]) async throws {
        let source = "(SELECT type, app_id, environment, customer, data FROM \(schema).events WHERE id = ANY($1::text[]::uuid[]))"
        let touched = try await scope.prepared(
            TypedQuery(unsafeSQL: CohortRollup.record(into: schema, from: source), textArrays: [eventIds.map(\.uuidString)])
        ) { try $0.decode((String, String, String, String).self) }
        guard !touched.isEmpty else { return }
        try await scope.prepared(
            TypedQuery(
                unsafeSQL: CohortRollup.add(into: schema, touched: CohortRollup.touchedParameters, sign: 1),
                textArrays: [touched.map(\.0), touched.map(\.1), touched.map(\.2), touched.map(\.3)]))
    }

    /// The daily figures and the cohorts made again from every stored event, with no statement timeout:
    /// the unit's own deadline (`UnitAccess.rebuild`: an hour, `MetricsService.rebuild`) bounds them. The event
    /// numbering row is locked first, so no append runs beside it.
    func rebuild() async throws {
        _ = try await scope.all("SET LOCAL statement_timeout = 0") { _ in () }
        _ = try await scope.all("SELECT last FROM \(unescaped: schema).event_sequence FOR UPDATE") { _ in () }
        for table in ["metrics_daily", "metrics_cohorts", "metrics_member_months", "metrics_cohort_members"] {
            _ = try await scope.all(PostgresQuery(unsafeSQL: "DELETE FROM \(schema).\(table)")) { _ in () }
        }
        let events = "(SELECT type, app_id, environment, customer, data FROM \(schema).events)"
        _ = try await scope.all(PostgresQuery(unsafeSQL: MetricsRollup.insert(into: schema, MetricsRollup.rows(from: events)))) { _ in () }
        _ = try await scope.all(PostgresQuery(unsafeSQL: CohortRollup.record(into: schema, from: events))) { _ in () }
        let everyMember = "(SELECT app_id, environment, member, NULL::date AS month FROM \(schema).metrics_cohort_members)"
        _ = try await scope.all(PostgresQuery(unsafeSQL: CohortRollup.add(into: schema, touched: everyMember, sign: 1, everyMember: true))) { _ in () }
    }
}

extension PostgresTenantUnit {
    var metrics: any MetricsStore { MetricsRepository(scope: scope) }
}
