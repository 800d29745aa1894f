import AppStoreServer
import Contract
import Foundation

/// How long each point of a metrics series is.
public enum MetricsStep: String, Sendable, CaseIterable, Codable, JSONSchemaType {
    case day, week, month
}

/// One currency's money in a period, in Apple's milliunits of it.
@RPCObject(title: "MetricsMoney") public struct MetricsMoney: Sendable, Equatable {
    public let currency: String
    /// What customers were charged (offers' discounts and quantities included), before refunds.
    public let revenue: Int64
    /// The estimated proceeds of those charges (lifecycle events' `money.estimatedProceeds`).
    public let proceeds: Int64
    /// Refunds less refunds reversed: 0 or negative.
    public let refunded: Int64
    public let refundedProceeds: Int64
    /// Monthly recurring revenue at the period's end: every active paid period's price per month.
    public let mrr: Int64
}

/// One period of a metrics series: what happened in it, and what stood at its end.
@RPCObject(title: "MetricsPoint") public struct MetricsPoint: Sendable, Equatable {
    /// The period's first day (UTC midnight); it ends where the next begins.
    public let start: Date
    /// First purchases of a subscription (Apple's `INITIAL_BUY`), trials included.
    public let newSubscriptions: Int64
    /// Returns after a subscription lapsed (`RESUBSCRIBE`).
    public let reactivations: Int64
    public let trialStarts: Int64
    public let trialConversions: Int64
    /// Charges that continued a subscription: renewals, recoveries, conversions, changes of product.
    public let renewals: Int64
    /// Non-consumables, non-renewing subscriptions and consumables bought.
    public let purchases: Int64
    /// Auto-renew turned off.
    public let cancellations: Int64
    public let billingIssues: Int64
    /// Subscriptions that expired: the customer's choice, billing, any other reason (price increase
    /// refused, product off sale).
    public let churnedVoluntary: Int64
    public let churnedBilling: Int64
    public let churnedOther: Int64
    /// Refunds less refunds reversed.
    public let refunds: Int64
    /// Charges with a price (trials and family sharing not counted).
    public let paidCharges: Int64
    /// Refunds ÷ paid charges in the period; absent when there were no paid charges.
    public let refundRate: Double?
    /// Paid subscription periods running at the period's end (trials and grace periods not counted).
    public let activeSubscriptions: Int64
    /// Free trials running at the period's end.
    public let activeTrials: Int64
    /// By currency.
    public let money: [MetricsMoney]
    /// With `convertTo`: all of `money` in that currency, each day's figures at that day's rate (the latest
    /// the operator loaded on or before it), MRR at the period's end's; absent without it.
    public let converted: MetricsMoney?
    /// With `convertTo`: the currencies with figures in the period but no rate into it (left out of `converted`).
    public let unconverted: [String]?
}

@RPCObject(title: "Metrics") public struct MetricsReport: Sendable {
    public let from: Date
    public let to: Date
    public let step: MetricsStep
    public let points: [MetricsPoint]
}

/// Figures a business runs on, from the daily rollup of lifecycle events: any range, by day, week or month,
/// of one app, environment, product set, entitlement or storefront.
public struct MetricsService: Sendable {
    let persistence: any Persistence

    /// At most this many points in one answer.
    public static let mostPoints = 1_000

    public func metrics(
        tenant: Tenant, from: Date, to: Date, step: MetricsStep, bundleId: String?, productIds: [String]?, entitlement: String?,
        environment: AppStoreEnvironment?, storefront: String?, convertTo target: String? = nil
    ) async throws -> MetricsReport {
        try Self.check(convertTo: target)
        guard from <= to else { throw StoregateError.invalid(field: "to", reason: "must not be before from") }
        let starts = Self.periods(from: from, to: to, step: step)
        guard starts.count <= Self.mostPoints else {
            throw StoregateError.invalid(field: "step", reason: "makes \(starts.count) points; at most \(Self.mostPoints): a longer step, or a shorter range")
        }
        let end = Self.calendar.date(byAdding: Self.component(step), value: 1, to: starts.last ?? from) ?? to
        let days = try await inTenant(
            tenant, bundleId: bundleId, productIds: productIds, entitlement: entitlement, environment: environment, storefront: storefront
        ) { unit, filter in try await unit.metrics.days(through: end.addingTimeInterval(-1), filter: filter) }
        let rates = try await rates(into: target, for: Set(days.map(\.currency)), through: to)
        return MetricsReport(from: from, to: to, step: step, points: Self.points(days, starts: starts, step: step, rates: rates))
    }

    static func check(convertTo target: String?) throws {
        if let target, !(target.count == 3 && target.allSatisfy({ $0.isASCII && $0.isUppercase })) {
            throw StoregateError.invalid(field: "convertTo", reason: "must be an ISO 4217 code such as USD")
        }
    }

    /// The operator's rates into `target` for `currencies`, up to `through`; nil without a target.
    func rates(into target: String?, for currencies: Set<String>, through: Date) async throws -> Rates? {
        guard let target else { return nil }
        let wanted = Array(currencies.subtracting(["", target]))
        let loaded = try await persistence.control(.read) { try await $0.exchangeRates.rates(target: target, currencies: wanted, through: through) }
        return Rates(target: target, loaded: loaded)
    }

    /// Runs `body` in the tenant with the filter the parameters say: the app found by its bundle ID, the
    /// products of an entitlement (those of `productIds` among them, when both are given).
    func inTenant<T: Sendable>(
        _ tenant: Tenant, bundleId: String?, productIds: [String]?, entitlement: String?, environment: AppStoreEnvironment?, storefront: String?,
        _ body: (any TenantUnit, MetricsFilter) async throws -> T
    ) async throws -> T {
        if let storefront, storefront.count != 3 { throw StoregateError.invalid(field: "storefront", reason: "must be an ISO 3166-1 alpha-3 code") }
        var appId: UUID?
        if let bundleId { appId = try await persistence.app(tenant, bundleId: bundleId).id }
        return try await persistence.inTenant(tenant, .read) { unit -> T in
            var products = productIds
            if let entitlement {
                let catalog = try await unit.catalog.catalog() ?? Catalog()
                guard let found = catalog.entitlements.first(where: { $0.name == entitlement }) else {
                    throw StoregateError.invalid(field: "entitlement", reason: "is not an entitlement of the catalog (catalog.get)")
                }
                products = products.map { Array(Set($0).intersection(found.productIds)) } ?? found.productIds
            }
            return try await body(unit, MetricsFilter(appId: appId, environment: environment, productIds: products, storefront: storefront))
        }
    }

    /// The operator's rates into one currency, by currency, oldest first.
    struct Rates {
        let target: String
        let byCurrency: [String: [ExchangeRate]]

        init(target: String, loaded: [ExchangeRate]) {
            self.target = target
            byCurrency = Dictionary(grouping: loaded, by: \.currency)
        }

        /// What one unit of `currency` is worth in the target on `day`: the latest rate on or before it.
        func rate(_ currency: String, on day: Date) -> Decimal? {
            if currency == target { return 1 }
            return byCurrency[currency]?.last { $0.day <= day }?.rate
        }
    }

    /// Rolls the days into periods: flows summed within each period, stocks summed from the first day on.
    static func points(_ days: [MetricsDay], starts: [Date], step: MetricsStep, rates: Rates? = nil) -> [MetricsPoint] {
        var index = 0
        var active: Int64 = 0
        var trials: Int64 = 0
        var mrr: [String: Int64] = [:]
        var points: [MetricsPoint] = []
        for start in starts {
            let end = calendar.date(byAdding: component(step), value: 1, to: start) ?? start
            var sum = MetricsDay(day: start, currency: "", values: [])
            var money: [String: [Int64]] = [:]
            var converted: [Decimal] = [0, 0, 0, 0]
            var unconverted: Set<String> = []
            while index < days.count, days[index].day < end {
                let d = days[index]
                index += 1
                active += d.activeChange
                trials += d.trialsChange
                if !d.currency.isEmpty, d.mrrChange != 0 { mrr[d.currency, default: 0] += d.mrrChange }
                guard d.day >= start else { continue }
                sum.newSubscriptions += d.newSubscriptions
                sum.reactivations += d.reactivations
                sum.trialStarts += d.trialStarts
                sum.trialConversions += d.trialConversions
                sum.renewals += d.renewals
                sum.purchases += d.purchases
                sum.cancellations += d.cancellations
                sum.billingIssues += d.billingIssues
                sum.churnedVoluntary += d.churnedVoluntary
                sum.churnedBilling += d.churnedBilling
                sum.churnedOther += d.churnedOther
                sum.refunds += d.refunds
                sum.paidCharges += d.paidCharges
                if !d.currency.isEmpty {
                    let m = money[d.currency] ?? [0, 0, 0, 0]
                    money[d.currency] = [m[0] + d.revenue, m[1] + d.proceeds, m[2] + d.refunded, m[3] + d.refundedProceeds]
                    if let rates {
                        if let rate = rates.rate(d.currency, on: d.day) {
                            for (i, amount) in [d.revenue, d.proceeds, d.refunded, d.refundedProceeds].enumerated() { converted[i] += Decimal(amount) * rate }
                        } else if d.revenue != 0 || d.proceeds != 0 || d.refunded != 0 || d.refundedProceeds != 0 {
                            unconverted.insert(d.currency)
                        }
                    }
                }
            }
            var convertedMoney: MetricsMoney?
            if let rates {
                let last = end.addingTimeInterval(-86_400)
                var mrrConverted: Decimal = 0
                for (currency, amount) in mrr where amount != 0 {
                    if let rate = rates.rate(currency, on: last) { mrrConverted += Decimal(amount) * rate } else { unconverted.insert(currency) }
                }
                convertedMoney = MetricsMoney(
                    currency: rates.target, revenue: Self.rounded(converted[0]), proceeds: Self.rounded(converted[1]),
                    refunded: Self.rounded(converted[2]), refundedProceeds: Self.rounded(converted[3]), mrr: Self.rounded(mrrConverted))
            }
            let currencies = Set(money.keys).union(mrr.filter { $0.value != 0 }.keys).sorted()
            points.append(
                MetricsPoint(
                    start: start, newSubscriptions: sum.newSubscriptions, reactivations: sum.reactivations, trialStarts: sum.trialStarts,
                    trialConversions: sum.trialConversions, renewals: sum.renewals, purchases: sum.purchases, cancellations: sum.cancellations,
                    billingIssues: sum.billingIssues, churnedVoluntary: sum.churnedVoluntary, churnedBilling: sum.churnedBilling,
                    churnedOther: sum.churnedOther, refunds: sum.refunds, paidCharges: sum.paidCharges,
                    refundRate: sum.paidCharges > 0 ? Double(sum.refunds) / Double(sum.paidCharges) : nil, activeSubscriptions: active, activeTrials: trials,
                    money: currencies.map { c in
                        let m = money[c] ?? [0, 0, 0, 0]
                        return MetricsMoney(currency: c, revenue: m[0], proceeds: m[1], refunded: m[2], refundedProceeds: m[3], mrr: mrr[c] ?? 0)
                    }, converted: convertedMoney, unconverted: rates.map { _ in unconverted.sorted() }))
        }
        return points
    }

    /// Milliunits, rounded half away from zero.
    static func rounded(_ value: Decimal) -> Int64 {
        var value = value
        var result = Decimal()
        NSDecimalRound(&result, &value, 0, .plain)
        return NSDecimalNumber(decimal: result).int64Value
    }

    /// UTC, weeks from Monday (ISO 8601).
    public static let calendar: Calendar = {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static func component(_ step: MetricsStep) -> Calendar.Component {
        switch step {
        case .day: .day
        case .week: .weekOfYear
        case .month: .month
        }
    }

    /// The first day of each period from the one holding `from` to the one holding `to`.
    static func periods(from: Date, to: Date, step: MetricsStep) -> [Date] {
        let first: Date
        switch step {
        case .day: first = calendar.startOfDay(for: from)
        case .week: first = calendar.dateInterval(of: .weekOfYear, for: from)?.start ?? calendar.startOfDay(for: from)
        case .month: first = calendar.dateInterval(of: .month, for: from)?.start ?? calendar.startOfDay(for: from)
        }
        var starts: [Date] = []
        var next = first
        while next <= to, starts.count <= mostPoints {
            starts.append(next)
            next = calendar.date(byAdding: component(step), value: 1, to: next) ?? to.addingTimeInterval(1)
        }
        return starts
    }

    /// Loads the operator's exchange rates (`storegate rates load`).
    public func load(rates: [ExchangeRate]) async throws {
        try await persistence.control { try await $0.exchangeRates.load(rates) }
    }

    /// Makes the tenant's daily figures again from its stored lifecycle events (`storegate metrics rebuild`).
    /// One transaction, allowed the rebuild deadline (an hour, not a request's seconds): it reads every
    /// stored event of the tenant. Refused once the data-retention job deleted events: the figures they made
    /// would be lost, so the rollups kept as they were written are the only record of them.
    public func rebuild(tenant: Tenant) async throws {
        try await persistence.inTenant(tenant, .rebuild) { unit in
            if let gone = try await unit.dataRetention.deleted()[.events], gone.count > 0 {
                throw StoregateError.conflict(
                    field: "events",
                    reason: "events before \(gone.before.formatted(.iso8601)) were deleted by data retention; a rebuild would lose the figures they made")
            }
            try await unit.metrics.rebuild()
        }
    }
}
