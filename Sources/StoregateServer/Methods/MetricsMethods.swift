import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `metrics.get`: figures a business runs on, from the daily rollup of lifecycle events.
enum MetricsMethods {
    static let all = [get]

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
}
