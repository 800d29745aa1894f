import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `metrics.get` and `metrics.cohorts`: figures a business runs on, from the rollups of lifecycle events.
enum MetricsMethods {
    static let all = [get, cohorts]

    @RPCParams struct GetParams {
        /// The first day (its UTC date counts; the period holding it is the first point).
        let from: Date
        /// The last day, included.
        let to: Date
        /// How long each point is (default: month).
        let step: MetricsStep?
        /// Only this app.
        @Field(.bundleId) let bundleId: String?
        /// Only these products.
        let productIds: [String]?
        /// Only the products that unlock this entitlement of the catalog.
        @Field(.entitlementName) let entitlement: String?
        @Field(.appStoreEnvironment) let environment: String?
        /// Only this storefront (ISO 3166-1 alpha-3, such as DEU).
        @Field(.characters("A-Z", count: 3...3)) let storefront: String?
        /// Also all money in this currency (ISO 4217), at the exchange rates the operator loaded (`storegate rates load`).
        @Field(.characters("A-Z", count: 3...3)) let convertTo: String?
    }

    static let get = RPCMethod<RPCCall>(
        "metrics.get", tag: "metrics", summary: "Subscriptions, trials, churn, refunds, revenue and MRR over a range, by day, week or month.",
        description: """
            One point per period from the one holding `from` to the one holding `to` (UTC; weeks start on Monday; at most 1,000 points). \
            Counts are what happened in the period; `activeSubscriptions`, `activeTrials` and each currency's `mrr` are what stood at its \
            end. Money is per currency, in Apple's milliunits; proceeds are the lifecycle events' estimates. docs/API.md ("Metrics") \
            defines each figure and the Apple date it is counted by.
            """,
        result: "metrics", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (params: GetParams, call) in
        try await call.capabilities.metrics.metrics(
            tenant: call.caller.tenant, from: params.from, to: params.to, step: params.step ?? .month, bundleId: params.bundleId, productIds: params.productIds,
            entitlement: params.entitlement, environment: params.environment.map(AppStoreEnvironment.init(rawValue:)), storefront: params.storefront,
            convertTo: params.convertTo)
    }

    @RPCParams struct CohortsParams {
        /// The first cohort: the month holding this day (UTC).
        let from: Date
        /// The last cohort: the month holding this day.
        let to: Date
        /// Only customers whose first purchase was in this app.
        @Field(.bundleId) let bundleId: String?
        /// Only customers whose first purchase was one of these products.
        let productIds: [String]?
        /// Only customers whose first purchase was a product that unlocks this entitlement of the catalog.
        @Field(.entitlementName) let entitlement: String?
        @Field(.appStoreEnvironment) let environment: String?
        /// Only customers whose first purchase was in this storefront (ISO 3166-1 alpha-3).
        @Field(.characters("A-Z", count: 3...3)) let storefront: String?
        /// Also all money in this currency (ISO 4217), at each month's last day's rate (`storegate rates load`).
        @Field(.characters("A-Z", count: 3...3)) let convertTo: String?
    }

    static let cohorts = RPCMethod<RPCCall>(
        "metrics.cohorts", tag: "metrics",
        summary: "Monthly cohorts (customers by month of first purchase, share subscribed N months later, revenue) and ARPU.",
        description: """
            One cohort per month from `from` to `to` (at most 120): its customers (a customer's first purchase in an app and \
            environment; a purchase series with no linked customer counts as one), and for each month from its own to the current one \
            those subscribed at some time in it (trial or paid) and the money charged less refunded in it. `months`: the same months \
            for every customer, with those active (subscribed or charged) and ARPU, the month's net revenue per active customer. \
            docs/API.md ("Cohorts") defines each figure.
            """,
        result: "cohorts", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (params: CohortsParams, call) in
        try await call.capabilities.metrics.cohorts(
            tenant: call.caller.tenant, from: params.from, to: params.to, bundleId: params.bundleId, productIds: params.productIds,
            entitlement: params.entitlement, environment: params.environment.map(AppStoreEnvironment.init(rawValue:)), storefront: params.storefront,
            convertTo: params.convertTo)
    }
}
