import Foundation
import JSONRPC
import Storegate

/// `catalog.*`: the tenant's products and the entitlements they unlock, and the products its data names
/// that the catalog lacks.
enum CatalogMethods {
    static let all = [get, set, unknownProducts]

    static let get = RPCMethod<RPCCall>(
        "catalog.get", tag: "catalog", summary: "The tenant's catalog: each app's products and the entitlements they unlock.",
        description: "Empty (no products, no entitlements) until `catalog.set` or a manifest sets one.", result: "catalog", errors: []
    ) { (_: NoParams, call) in
        try await call.capabilities.catalog.catalog(tenant: call.caller.tenant)
    }

    @RPCParams struct SetParams {
        /// Each app's products: listed once per app, with the type Apple gives it.
        let products: [Catalog.Product]
        /// The entitlements the tenant's apps check, each with the product IDs that unlock it.
        let entitlements: [Catalog.Entitlement]
        /// The App Store commission program, for the estimated proceeds on lifecycle events (`standard` when absent).
        let commission: CommissionProgram?
        /// Tax by storefront (ISO 3166-1 alpha-3) in basis points (1900 is 19 %), deducted from prices in estimated proceeds.
        let taxRates: [String: Int]?
    }

    static let set = RPCMethod<RPCCall>(
        "catalog.set", tag: "catalog", summary: "Replaces the tenant's catalog.",
        description: """
            The whole catalog at once; audited, and evented as `catalog.changed` when it differs. Refused, naming the field, for a product type \
            Apple does not define, a subscription group on anything but an auto-renewable subscription, a product listed twice for an app or of \
            an app the tenant does not have, an entitlement named twice or naming a product the catalog lacks, a level (1 to 100) on anything but \
            an auto-renewable subscription, a tax rate not keyed by a storefront's alpha-3 code or outside 0 to 10000 basis points. An \
            entitlement no product unlocks is kept and warned of (only a grant can give it).
            """, result: "catalogSet", errors: [ErrorCode.invalidParams]
    ) { (params: SetParams, call) in
        try await call.capabilities.catalog.setCatalog(
            tenant: call.caller.tenant,
            Catalog(products: params.products, entitlements: params.entitlements, commission: params.commission, taxRates: params.taxRates),
            actor: call.caller.actor)
    }

    @RPCObject struct UnknownProducts {
        let products: [UnknownProduct]
    }

    static let unknownProducts = RPCMethod<RPCCall>(
        "catalog.unknownProducts", tag: "catalog", summary: "Products the tenant's transactions name that the catalog does not list.",
        description: "Each with its app and how many stored transactions are of it; such a product still counts by its product ID.",
        result: "unknownProducts", errors: []
    ) { (_: NoParams, call) in
        UnknownProducts(products: try await call.capabilities.catalog.unknownProducts(tenant: call.caller.tenant))
    }
}
