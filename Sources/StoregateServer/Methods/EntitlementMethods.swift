import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `entitlements.list`: what a customer may use now; `entitlements.check`: one entitlement, yes or no;
/// `entitlements.grant` and `revokeGrant`: compensation.
enum EntitlementMethods {
    static let all = [list, check, grant, revokeGrant, grants]

    @RPCParams struct EntitlementsParams {
        @Field(.customerId) let customerId: String
    }

    static let list = RPCMethod<RPCCall>(
        "entitlements.list", tag: "subscriptions", summary: "What a customer may use now.",
        description: """
            Subscriptions that grant access (active, or in the billing grace period), purchases of every other type \
            (consumable, non-consumable, non-renewing subscription) that are neither revoked nor expired, and grants in force (entitlements.grant); \
            and in active, the catalog's entitlements they give, in the catalog's order, each with every holding that grants it, since, until \
            (absent when one never ends) and willRenew. A product the catalog does not list gives no entitlement: it counts in subscriptions or \
            purchases by its product ID, and catalog.unknownProducts reports it. A grant of a product gives that product's entitlements.
            """, result: "entitlements", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (params: EntitlementsParams, call) in
        try await call.capabilities.subscriptions.entitlements(tenant: call.caller.tenant, customerId: params.customerId)
    }

    @RPCParams struct CheckParams {
        @Field(.customerId) let customerId: String
        /// One of the catalog's entitlement names (any name while the catalog declares none).
        @Field(.entitlementName) let entitlement: String
    }

    static let check = RPCMethod<RPCCall>(
        "entitlements.check", tag: "subscriptions", summary: "Whether a customer has one entitlement now.",
        description: """
            Answered as entitlements.list's active answers it, from the same per-process caches of holdings and of the catalog (no database \
            round trip once they are held): active, until (absent when it never ends) and willRenew. An entitlement the catalog does not declare, \
            when it declares some, is refused naming entitlement.
            """, result: "entitlementCheck", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (params: CheckParams, call) in
        try await call.capabilities.subscriptions.check(tenant: call.caller.tenant, customerId: params.customerId, entitlement: params.entitlement)
    }
}

extension EntitlementMethods {
    @RPCParams struct GrantParams {
        @Field(.customerId) let customerId: String
        /// With productId: the product's app.
        @Field(.bundleId) let bundleId: String?
        /// A product of the app to give access to; or give entitlement.
        @Field(.storeIdentifier) let productId: String?
        /// One of the tenant's own entitlement names; or give bundleId and productId.
        @Field(.entitlementName) let entitlement: String?
        /// For this many days from now; or give expiresDate.
        @Field(.grantDays) let days: Int?
        /// Until then (at most a year away); or give days.
        let expiresDate: Date?
        /// Why, as support would tell the customer.
        @Field(.text(max: 500)) let reason: String
    }

    static let grant = RPCMethod<RPCCall>(
        "entitlements.grant", tag: "subscriptions", summary: "Gives a customer access for a while (compensation).",
        description: """
            A product of an app (bundleId and productId) or one of the tenant's entitlements (entitlement), from now for days or until \
            expiresDate (at most a year). Once the catalog declares entitlements, entitlement must be one of them; with none declared, any name \
            is the tenant's own. It counts in entitlements.list until it expires or is revoked; entitlement.granted is evented, \
            and the grant is audited with who gave it.
            """, result: "grant", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: GrantParams, call) in
        try await call.capabilities.subscriptions.grant(
            tenant: call.caller.tenant, customerId: p.customerId, bundleId: p.bundleId, productId: p.productId, entitlement: p.entitlement, days: p.days,
            expiresDate: p.expiresDate, reason: p.reason, actor: call.caller.actor)
    }

    @RPCParams struct RevokeGrantParams {
        @Field(.customerId) let customerId: String
        @Field(.grantId) let grantId: String
        @Field(.text(max: 500)) let reason: String?
    }

    static let revokeGrant = RPCMethod<RPCCall>(
        "entitlements.revokeGrant", tag: "subscriptions", summary: "Ends a grant now.",
        description: "entitlement.revoked is evented and the revocation audited; a grant revoked already is answered as it is.", result: "grant",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: RevokeGrantParams, call) in
        try await call.capabilities.subscriptions.revokeGrant(
            tenant: call.caller.tenant, customerId: p.customerId, grantId: p.grantId, reason: p.reason, actor: call.caller.actor)
    }

    @RPCParams struct GrantsParams {
        @Field(.customerId) let customerId: String
    }

    @RPCObject struct GrantsResult {
        let grants: [GrantView]
    }

    static let grants = RPCMethod<RPCCall>(
        "entitlements.grants", tag: "subscriptions", summary: "A customer's grants, newest first, those ended too.", result: "grants",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: GrantsParams, call) in
        GrantsResult(grants: try await call.capabilities.subscriptions.grants(tenant: call.caller.tenant, customerId: p.customerId))
    }
}
