import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `customers.sync`: a customer's purchases rebuilt from Apple.
enum CustomerMethods {
    static let all = [sync]

    @RPCParams struct SyncParams {
        @Field(.customerId) let customerId: String
    }

    @RPCObject struct SyncedApp {
        let bundleId: String
        let environment: String
        /// Transactions in Apple's history, verified and stored.
        @Field(.minimum(0)) let transactions: Int
        /// Subscriptions whose status Apple gave.
        @Field(.minimum(0)) let subscriptions: Int
    }

    @RPCObject struct SyncResult {
        let customerId: String
        let apps: [SyncedApp]
        let subscriptions: [SubscriptionMethods.Subscription]
        let purchases: [EntitlementMethods.Purchase]
    }

    static let sync = RPCMethod<RPCCall>(
        "customers.sync", tag: "transactions", summary: "Rebuilds a customer's purchases from Apple (server-side restore).",
        description: """
            For each app where Storegate knows one of the customer's identifiers, Apple's whole transaction history and every subscription's \
            status are read, verified and stored; transactions nobody owns are linked to this customer (ones linked to another customer stay \
            theirs). Returns the customer's subscriptions and the other purchases that grant access now. Audited.
            """, result: "customerSync", errors: TransactionMethods.lookupErrors
    ) { (p: SyncParams, call) in
        let sync = try await call.services.transactions.sync(tenant: call.caller.tenant, customerId: p.customerId, actor: call.caller.actor)
        let appIds = sync.apps.map(\.appId) + sync.subscriptions.map(\.subscription.appId) + sync.purchases.map(\.appId)
        let bundles = try await SubscriptionMethods.bundles(call, covering: appIds)
        return SyncResult(
            customerId: sync.customer.customerId,
            apps: sync.apps.map {
                SyncedApp(
                    bundleId: bundles[$0.appId] ?? "", environment: $0.environment.rawValue, transactions: $0.transactions, subscriptions: $0.subscriptions)
            }, subscriptions: sync.subscriptions.map { SubscriptionMethods.Subscription($0, bundles: bundles) },
            purchases: sync.purchases.map { EntitlementMethods.Purchase($0, bundles: bundles) })
    }
}
