import Foundation
import JSONRPC
import Logging
import NIOCore
import Storegate

/// What every handler gets: the authenticated caller, the request's logger and the domain services.
public struct RPCCall: Sendable {
    public let caller: Caller
    public let logger: Logger
    public let capabilities: Capabilities
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
            TenantMethods.all + AppMethods.all + OfferMethods.all + AccountMethods.all + NotificationMethods.all + SubscriptionMethods.all
            + EntitlementMethods.all + RefundMethods.all + TransactionMethods.all + AppTransactionMethods.all + CustomerMethods.all
            + ExternalPurchaseTokenMethods.all + EventMethods.all + WebhookMethods.all + RetentionMethods.all + AdvancedCommerceMethods.all
            + CatalogMethods.all + MetricsMethods.all + ExportMethods.all + AuditMethods.all + DataRetentionMethods.all
        func build(discovering document: JSONValue) -> RPCRegistry<RPCCall> {
            var registry = RPCRegistry<RPCCall>()
            registry.register(discover(document))
            for method in methods { registry.register(method) }
            return registry
        }
        // The document describes rpc.discover too, so it is generated from a first pass of the table.
        return build(discovering: document(build(discovering: .null)))
    }()

    /// Methods whose documented parameters do not fit the server's `maxBodyBytes` (1 MiB by default), and
    /// the body each may have when sent alone (not in a batch): a full-size PNG for Retention Messaging.
    public static let largeBodies = [RetentionMethods.uploadImage.description.name: RetentionMethods.maxPNGLength + 64 * 1024]
    static let largestBody = largeBodies.values.max() ?? 0

    /// Whether a body past `maxBodyBytes` is one call of a method allowed a large body, within its allowance.
    static func mayBeLarge(_ body: ByteBuffer) -> Bool {
        struct Call: Decodable { let method: String }
        guard let call = try? JSONDecoder().decode(Call.self, from: Data(body.readableBytesView)), let allowed = largeBodies[call.method] else {
            return false
        }
        return body.readableBytes <= allowed
    }

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
}

/// A result that is already JSON.
struct RawJSON: RPCResult {
    let value: JSONValue

    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }

    static let schema: JSONValue = ["$ref": "https://raw.githubusercontent.com/open-rpc/meta-schema/master/schema.json"]
}
