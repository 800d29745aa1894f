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

    static let list = RPCMethod<RPCCall>(
        "entitlements.list", tag: "subscriptions", summary: "What a customer may use now.",
        description: """
            Subscriptions that grant access (active, or in the billing grace period) and purchases of every other type \
            (consumable, non-consumable, non-renewing subscription) that are neither revoked nor expired.
            """, result: "entitlements", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (params: EntitlementsParams, call) in
        try await call.services.subscriptions.entitlements(tenant: call.caller.tenant, customerId: params.customerId)
    }
}
