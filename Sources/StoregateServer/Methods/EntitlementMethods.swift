import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `entitlements.list`: what a customer may use now.
enum EntitlementMethods {
    static let all = [list]

    @RPCParams struct EntitlementsParams {
        @Field(.customerId) let customerId: String
    }

    @RPCObject struct Purchase {
        let bundleId: String
        let environment: String
        let productId: String
        @Field(.oneOf(["Consumable", "Non-Consumable", "Non-Renewing Subscription"])) let type: String
        let transactionId: String
        let originalTransactionId: String
        let purchaseDate: Date?
        let expiresDate: Date?
        @Field(.minimum(1)) let quantity: Int

        init(_ p: OneTimePurchase, bundles: [UUID: String]) {
            bundleId = bundles[p.appId] ?? ""
            environment = p.environment.rawValue
            productId = p.productId
            type = p.productType.rawValue
            transactionId = p.transactionId
            originalTransactionId = p.originalTransactionId
            purchaseDate = p.purchaseDate
            expiresDate = p.expiresDate
            quantity = p.quantity
        }
    }

    @RPCObject struct EntitlementsResult {
        let customerId: String
        let subscriptions: [SubscriptionMethods.Subscription]
        let purchases: [Purchase]
    }

    static let list = RPCMethod<RPCCall>(
        "entitlements.list", tag: "subscriptions", summary: "What a customer may use now.",
        description: """
            Subscriptions that grant access (active, or in the billing grace period) and purchases of every other type \
            (consumable, non-consumable, non-renewing subscription) that are neither revoked nor expired.
            """, result: "entitlements", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (params: EntitlementsParams, call) in
        let (subscriptions, purchases) = try await call.services.subscriptions.entitlements(tenant: call.caller.tenant, customerId: params.customerId)
        let bundles = try await SubscriptionMethods.bundles(call, covering: subscriptions.map(\.subscription.appId) + purchases.map(\.appId))
        return EntitlementsResult(
            customerId: params.customerId, subscriptions: subscriptions.map { SubscriptionMethods.Subscription($0, bundles: bundles) },
            purchases: purchases.map { Purchase($0, bundles: bundles) })
    }
}
