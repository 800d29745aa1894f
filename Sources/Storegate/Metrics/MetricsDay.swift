import AppStoreServer
import Foundation

/// One day's figures, summed over whatever a query filters (apps, products, storefronts), in one currency:
/// the counts of what happened that day, Apple's money charged and refunded (milliunits), and the day's
/// change to the active subscriptions, active trials and monthly recurring revenue. Rows whose events carry
/// no money are in the currency "".
public struct MetricsDay: Sendable, Equatable {
    public var day: Date
    public var currency: String
    public var newSubscriptions: Int64 = 0
    public var reactivations: Int64 = 0
    public var trialStarts: Int64 = 0
    public var trialConversions: Int64 = 0
    public var renewals: Int64 = 0
    public var purchases: Int64 = 0
    public var cancellations: Int64 = 0
    public var billingIssues: Int64 = 0
    public var churnedVoluntary: Int64 = 0
    public var churnedBilling: Int64 = 0
    public var churnedOther: Int64 = 0
    public var refunds: Int64 = 0
    /// Charges with a price above zero (what a refund rate divides by).
    public var paidCharges: Int64 = 0
    public var revenue: Int64 = 0
    public var proceeds: Int64 = 0
    public var refunded: Int64 = 0
    public var refundedProceeds: Int64 = 0
    public var activeChange: Int64 = 0
    public var trialsChange: Int64 = 0
    public var mrrChange: Int64 = 0

    public init(day: Date, currency: String, values: [Int64]) {
        self.day = day
        self.currency = currency
        let v = values + Array(repeating: 0, count: max(0, 20 - values.count))
        (newSubscriptions, reactivations, trialStarts, trialConversions, renewals, purchases, cancellations) = (v[0], v[1], v[2], v[3], v[4], v[5], v[6])
        (billingIssues, churnedVoluntary, churnedBilling, churnedOther, refunds, paidCharges) = (v[7], v[8], v[9], v[10], v[11], v[12])
        (revenue, proceeds, refunded, refundedProceeds, activeChange, trialsChange, mrrChange) = (v[13], v[14], v[15], v[16], v[17], v[18], v[19])
    }
}

/// What a metrics query keeps: one app, one environment, some products, one storefront (each when given).
public struct MetricsFilter: Sendable, Equatable {
    public var appId: UUID?
    public var environment: AppStoreEnvironment?
    public var productIds: [String]?
    public var storefront: String?

    public init(appId: UUID? = nil, environment: AppStoreEnvironment? = nil, productIds: [String]? = nil, storefront: String? = nil) {
        self.appId = appId
        self.environment = environment
        self.productIds = productIds
        self.storefront = storefront
    }
}

/// One month of one cohort (the customers whose first purchase was in the month `cohort`), summed over
/// whatever a query filters, in one currency: "" for the counts (the cohort's members, in its first month
/// only; those subscribed in the month; those subscribed or charged in it), a currency for the money
/// charged in the month less refunded in it (milliunits).
public struct CohortMonth: Sendable, Equatable {
    public var cohort: Date
    public var month: Date
    public var currency: String
    public var customers: Int64 = 0
    public var subscribed: Int64 = 0
    public var active: Int64 = 0
    public var netRevenue: Int64 = 0
    public var netProceeds: Int64 = 0

    public init(
        cohort: Date, month: Date, currency: String, customers: Int64 = 0, subscribed: Int64 = 0, active: Int64 = 0, netRevenue: Int64 = 0,
        netProceeds: Int64 = 0
    ) {
        (self.cohort, self.month, self.currency) = (cohort, month, currency)
        (self.customers, self.subscribed, self.active, self.netRevenue, self.netProceeds) = (customers, subscribed, active, netRevenue, netProceeds)
    }
}

public protocol MetricsStore: Sendable {
    /// The figures of every day up to `through` (inclusive) that passes `filter`, by day and currency, oldest first.
    func days(through: Date, filter: MetricsFilter) async throws -> [MetricsDay]
    /// The months of the cohorts from `from`'s month to `through`, and every cohort's months from `from`'s
    /// month to `through`, that pass `filter` (by the members' first purchase), oldest first.
    func cohorts(from: Date, through: Date, filter: MetricsFilter) async throws -> [CohortMonth]
    /// Makes the daily figures and the cohorts again from the stored lifecycle events alone.
    func rebuild() async throws
}
