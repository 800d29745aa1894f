import Foundation
import JSONRPC
import Logging
import Storegate

/// What every handler gets: the authenticated caller, the request's logger and the domain services.
public struct RPCCall: Sendable {
    public let caller: Caller
    public let logger: Logger
    public let services: Services
    /// Where Apple reaches this server, for notification URLs.
    public let publicURL: String
}

/// The method table. Each method is a typed `Params` → `Result` handler; the OpenRPC document in
/// `api-spec/openrpc.json` is generated from this table.
public enum StoregateRPC {
    public static let title = "Storegate"
    public static let apiVersion = "0.1.0"

    /// The method table, built once.
    public static let registry: RPCRegistry<RPCCall> = {
        let methods =
            [tenantGet, appsList, appsGet] + OfferMethods.all + AccountMethods.all + NotificationMethods.all + SubscriptionMethods.all + RefundMethods.all
            + TransactionMethods.all + EventMethods.all + WebhookMethods.all
        func build(discovering document: JSONValue) -> RPCRegistry<RPCCall> {
            var registry = RPCRegistry<RPCCall>()
            registry.register(discover(document))
            for method in methods { registry.register(method) }
            return registry
        }
        // The document describes rpc.discover too, so it is generated from a first pass of the table.
        return build(discovering: document(build(discovering: .null)))
    }()

    /// The committed `api-spec/openrpc.json`.
    public static var documentText: String { document(registry).prettyPrinted }

    public static func document(_ registry: RPCRegistry<RPCCall>) -> JSONValue {
        OpenRPC.document(
            title: title, version: apiVersion,
            description: "App Store server-side work for many app developers: offers, account links, refunds and subscription status, per tenant.",
            registry: registry, errors: ErrorCode.all)
    }

    static func discover(_ document: JSONValue) -> RPCMethod<RPCCall> {
        RPCMethod(
            "rpc.discover", tag: "meta", summary: "Returns this OpenRPC document.", result: "openrpcDocument"
        ) { (_: NoParams, _) in RawJSON(value: document) }
    }

    static let tenantGet = RPCMethod<RPCCall>(
        "tenant.get", tag: "tenant", summary: "The calling tenant.", description: "Returns the tenant that owns the API key of the request.", result: "tenant",
        errors: [ErrorCode.unauthenticated]
    ) { (_: NoParams, call) in TenantView(call.caller.tenant) }

    static let appsList = RPCMethod<RPCCall>(
        "apps.list", tag: "apps", summary: "The tenant's apps.",
        description: "Every app of the calling tenant with its key IDs and kinds (never key material) and its notification URLs.", result: "apps"
    ) { (_: NoParams, call) in
        AppList(apps: try await call.services.apps.list(tenant: call.caller.tenant).map { AppView($0, publicURL: call.publicURL) })
    }

    @RPCParams struct AppsGetParams {
        /// The app's bundle ID.
        @Field(.bundleId) let bundleId: String?
        /// Storegate's id of the app.
        let appId: UUID?
    }

    static let appsGet = RPCMethod<RPCCall>(
        "apps.get", tag: "apps", summary: "One app by bundle ID or app id.",
        description: "Give exactly one of `bundleId` and `appId`. Another tenant's app is reported exactly like an app that does not exist.", result: "app",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (params: AppsGetParams, call) in
        switch (params.bundleId, params.appId) {
        case (let bundleId?, nil): return AppView(try await call.services.apps.get(tenant: call.caller.tenant, bundleId: bundleId), publicURL: call.publicURL)
        case (nil, let appId?): return AppView(try await call.services.apps.get(tenant: call.caller.tenant, appId: appId), publicURL: call.publicURL)
        default: throw StoregateError.invalid(field: "bundleId", reason: "give exactly one of bundleId and appId")
        }
    }
}

/// A result that is already JSON.
struct RawJSON: RPCResult {
    let value: JSONValue

    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }

    static let schema: JSONValue = ["$ref": "https://raw.githubusercontent.com/open-rpc/meta-schema/master/schema.json"]
}
