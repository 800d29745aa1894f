import AppStoreServer
import Contract
import Foundation

/// Money in one currency over a month, charged less refunded, in Apple's milliunits.
@RPCObject(title: "CohortMoney") public struct CohortMoney: Sendable, Equatable {
    public let currency: String
    /// Charges in the month less refunds in it (a refund reversed gives its share back).
    public let netRevenue: Int64
    public let netProceeds: Int64
    /// In a month of every cohort: `netRevenue` ÷ the month's active customers (rounded to the milliunit);
    /// absent in a cohort's months, or with no active customer.
    public let arpu: Int64?
}

/// One month of a cohort.
@RPCObject(title: "CohortPeriod") public struct CohortPeriod: Sendable, Equatable {
    /// 0 for the cohort's own month, 1 for the month after, …
    public let monthsLater: Int
    public let start: Date
    /// The cohort's customers with a subscription period (trial or paid, not refunded) running at some time in the month.
    public let subscribed: Int64
    /// `subscribed` ÷ the cohort's customers.
    public let share: Double?
    /// What the cohort's customers were charged in the month, less what was refunded in it.
    public let money: [CohortMoney]
    /// With `convertTo`: `money` in that currency, at the rate of the month's last day.
    public let converted: CohortMoney?
}

/// The customers whose first purchase (in an app and environment) was in one month.
@RPCObject(title: "Cohort") public struct Cohort: Sendable, Equatable {
    /// The month of their first purchase.
    public let start: Date
    public let customers: Int64
    /// From the cohort's month to the current one.
    public let months: [CohortPeriod]
    /// All the months' money together: the cohort's revenue to date.
    public let money: [CohortMoney]
    public let converted: CohortMoney?
}

/// One calendar month of all customers (every cohort's), for the average revenue per user.
@RPCObject(title: "CustomerMonth") public struct CustomerMonth: Sendable, Equatable {
    public let start: Date
    /// Customers subscribed (trial or paid) or charged at some time in the month.
    public let activeCustomers: Int64
    /// Charged less refunded in the month, and `arpu`: that ÷ `activeCustomers`.
    public let money: [CohortMoney]
    public let converted: CohortMoney?
}

@RPCObject(title: "Cohorts") public struct CohortsReport: Sendable {
    public let from: Date
    public let to: Date
    /// The cohorts of the months from `from` to `to`, oldest first.
    public let cohorts: [Cohort]
    /// The months from `from` to `to`, with every cohort's customers.
    public let months: [CustomerMonth]
    /// With `convertTo`: the currencies with money but no rate into it (left out of `converted`).
    public let unconverted: [String]?
}

extension MetricsService {
    /// Monthly cohorts and the average revenue per user, from the cohort rollup: customers by the month of
    /// their first purchase, filtered by that purchase's app, environment, product (or entitlement) and
    /// storefront.
    public func cohorts(
        tenant: Tenant, from: Date, to: Date, bundleId: String?, productIds: [String]?, entitlement: String?, environment: AppStoreEnvironment?,
        storefront: String?, convertTo target: String? = nil, now: Date = Date()
    ) async throws -> CohortsReport {
        try Self.check(convertTo: target)
        guard from <= to else { throw StoregateError.invalid(field: "to", reason: "must not be before from") }
        let starts = Self.periods(from: from, to: to, step: .month)
        guard starts.count <= 120 else { throw StoregateError.invalid(field: "to", reason: "makes \(starts.count) cohorts; at most 120 (ten years)") }
        let rows = try await inTenant(
            tenant, bundleId: bundleId, productIds: productIds, entitlement: entitlement, environment: environment, storefront: storefront
        ) { unit, filter in
            try await unit.metrics.cohorts(from: from, through: Self.monthEnd(of: max(now, to)), filter: filter)
        }
        let rates = try await rates(into: target, for: Set(rows.map(\.currency)), through: Self.monthEnd(of: max(now, to)))
        return Self.report(rows, from: from, to: to, starts: starts, now: now, rates: rates)
    }

    /// The last instant of the month holding `date`.
    static func monthEnd(of date: Date) -> Date {
        let start = calendar.dateInterval(of: .month, for: date)?.start ?? date
        return (calendar.date(byAdding: .month, value: 1, to: start) ?? date).addingTimeInterval(-1)
    }

    static func report(_ rows: [CohortMonth], from: Date, to: Date, starts: [Date], now: Date, rates: Rates?) -> CohortsReport {
        var unconverted: Set<String> = []
        /// One month's money by currency (arpu when `active` is given), and converted.
        func money(_ rows: [CohortMonth], month: Date, active: Int64?) -> ([CohortMoney], Decimal?, Decimal?) {
            let last = monthEnd(of: month)
            var byCurrency: [String: (Int64, Int64)] = [:]
            for r in rows where !r.currency.isEmpty {
                let m = byCurrency[r.currency] ?? (0, 0)
                byCurrency[r.currency] = (m.0 + r.netRevenue, m.1 + r.netProceeds)
            }
            var converted: (Decimal, Decimal)? = rates.map { _ in (0, 0) }
            for (currency, m) in byCurrency where m != (0, 0) {
                guard let rates else { break }
                if let rate = rates.rate(currency, on: last) {
                    converted = (converted!.0 + Decimal(m.0) * rate, converted!.1 + Decimal(m.1) * rate)
                } else {
                    unconverted.insert(currency)
                }
            }
            let list = byCurrency.keys.sorted().map { c in
                let m = byCurrency[c]!
                return CohortMoney(currency: c, netRevenue: m.0, netProceeds: m.1, arpu: arpu(m.0, active))
            }
            return (list, converted?.0, converted?.1)
        }
        func arpu(_ revenue: Int64, _ active: Int64?) -> Int64? {
            guard let active, active > 0 else { return nil }
            return rounded(Decimal(revenue) / Decimal(active))
        }
        func convertedMoney(_ revenue: Decimal?, _ proceeds: Decimal?, active: Int64?) -> CohortMoney? {
            guard let rates, let revenue, let proceeds else { return nil }
            return CohortMoney(currency: rates.target, netRevenue: rounded(revenue), netProceeds: rounded(proceeds), arpu: arpu(rounded(revenue), active))
        }
        let byCohort = Dictionary(grouping: rows, by: \.cohort)
        let thisMonth = calendar.dateInterval(of: .month, for: now)?.start ?? now
        let cohorts = starts.map { start -> Cohort in
            let mine = byCohort[start] ?? []
            let customers = mine.reduce(0) { $0 + $1.customers }
            let byMonth = Dictionary(grouping: mine, by: \.month)
            var months: [CohortPeriod] = []
            var month = start
            var total: [CohortMonth] = []
            var totalConverted: (Decimal, Decimal) = (0, 0)
            while month <= max(thisMonth, start) {
                let here = byMonth[month] ?? []
                total += here
                let subscribed = here.reduce(0) { $0 + $1.subscribed }
                let (list, revenue, proceeds) = money(here, month: month, active: nil)
                totalConverted = (totalConverted.0 + (revenue ?? 0), totalConverted.1 + (proceeds ?? 0))
                months.append(
                    CohortPeriod(
                        monthsLater: months.count, start: month, subscribed: subscribed,
                        share: customers > 0 ? Double(subscribed) / Double(customers) : nil, money: list,
                        converted: convertedMoney(revenue, proceeds, active: nil)))
                month = calendar.date(byAdding: .month, value: 1, to: month) ?? .distantFuture
            }
            let (sum, _, _) = money(total, month: start, active: nil)
            return Cohort(
                start: start, customers: customers, months: months, money: sum,
                converted: rates == nil ? nil : convertedMoney(totalConverted.0, totalConverted.1, active: nil))
        }
        let byMonth = Dictionary(grouping: rows, by: \.month)
        let months = starts.map { start -> CustomerMonth in
            let here = byMonth[start] ?? []
            let active = here.reduce(0) { $0 + $1.active }
            let (list, revenue, proceeds) = money(here, month: start, active: active)
            return CustomerMonth(start: start, activeCustomers: active, money: list, converted: convertedMoney(revenue, proceeds, active: active))
        }
        return CohortsReport(from: from, to: to, cohorts: cohorts, months: months, unconverted: rates.map { _ in unconverted.sorted() })
    }
}
