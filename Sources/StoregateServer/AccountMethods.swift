import Foundation
import JSONRPC
import Storegate

/// `accounts.*`: customers, their `appAccountToken`, and the App Store identifiers linked to them.
enum AccountMethods {
    static let all = [ensure, linkAppTransaction, linkTransaction, setAppAccountToken, resolve]

    struct Link: Encodable, Sendable {
        let bundleId: String
        let kind: String
        let value: String
        let linkedAt: Date
    }

    struct Customer: RPCResult {
        let customerId: String
        let appAccountToken: String
        let createdAt: Date
        let links: [Link]

        static let schema: JSONValue = customerSchema
    }

    static func view(_ view: CustomerView, call: RPCCall) async throws -> Customer {
        let bundles = try await SubscriptionMethods.bundles(call, covering: view.links.map(\.appId))
        return Customer(
            customerId: view.customer.customerId, appAccountToken: view.customer.appAccountToken.uuidString.lowercased(), createdAt: view.customer.createdAt,
            links: view.links.map { Link(bundleId: bundles[$0.appId] ?? "", kind: $0.kind.rawValue, value: $0.value, linkedAt: $0.linkedAt) })
    }

    static let customerSchema = Schema.object(
        [
            ("customerId", Schema.string()), ("appAccountToken", Schema.string("Pass to StoreKit's appAccountToken purchase option.", format: "uuid")),
            ("createdAt", Schema.string(format: "date-time")),
            (
                "links",
                Schema.array(
                    of: Schema.object(
                        [
                            ("bundleId", Schema.string()), ("kind", Schema.enumeration(AccountLink.Kind.allCases.map(\.rawValue))),
                            ("value", Schema.string()),
                            ("linkedAt", Schema.string(format: "date-time")),
                        ], required: ["bundleId", "kind", "value", "linkedAt"]))
            ),
        ], required: ["customerId", "appAccountToken", "createdAt", "links"], title: "Customer")

    static let customerId = RPCParam("customerId", "The tenant's own identifier of the customer (1…128 characters).", schema: Schema.string(maxLength: 128))
    static let bundleId = RPCParam("bundleId", "The app's bundle ID, within the caller's tenant.", schema: AppView.bundleIdSchema)
    static let transfer = RPCParam(
        "transfer", "Move identifiers already linked to another customer (audited). Without it such a link is refused.", schema: ["type": "boolean"],
        required: false)

    struct EnsureParams: RPCParams {
        let customerId: String

        static let parameters: [RPCParam] = [AccountMethods.customerId]
    }

    static let ensure = RPCMethod<RPCCall>(
        "accounts.ensure", tag: "accounts", summary: "The customer, created on first use, with a stable appAccountToken.",
        description: "StoreKit: `product.purchase(options: [.appAccountToken(UUID(uuidString: appAccountToken)!)])`.", result: "customer",
        errors: [ErrorCode.invalidParams]
    ) { (params: EnsureParams, call) in
        try await view(try await call.services.accounts.ensure(tenant: call.caller.tenant, customerId: params.customerId, actor: call.caller.actor), call: call)
    }

    struct LinkAppTransactionParams: RPCParams {
        let bundleId: String
        let customerId: String
        let signedAppTransaction: String
        let transfer: Bool?

        static let parameters: [RPCParam] = [
            AccountMethods.bundleId, AccountMethods.customerId, RPCParam("signedAppTransaction", "The AppTransaction JWS.", schema: Schema.string()),
            AccountMethods.transfer,
        ]
    }

    static let linkAppTransaction = RPCMethod<RPCCall>(
        "accounts.linkAppTransaction", tag: "accounts", summary: "Links the appTransactionId of a signed AppTransaction to the customer.",
        description: "Send `AppTransaction.shared`'s `jwsRepresentation` from the device. It is verified before anything is linked.", result: "customer",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.conflict, ErrorCode.signedDataInvalid]
    ) { (params: LinkAppTransactionParams, call) in
        try await view(
            try await call.services.accounts.linkAppTransaction(
                tenant: call.caller.tenant, bundleId: params.bundleId, customerId: params.customerId, signedAppTransaction: params.signedAppTransaction,
                transfer: params.transfer ?? false, actor: call.caller.actor), call: call)
    }

    struct LinkTransactionParams: RPCParams {
        let bundleId: String
        let customerId: String
        let signedTransaction: String
        let transfer: Bool?

        static let parameters: [RPCParam] = [
            AccountMethods.bundleId, AccountMethods.customerId, RPCParam("signedTransaction", "The transaction JWS.", schema: Schema.string()),
            AccountMethods.transfer,
        ]
    }

    static let linkTransaction = RPCMethod<RPCCall>(
        "accounts.linkTransaction", tag: "accounts", summary: "Links a signed transaction's originalTransactionId and appTransactionId to the customer.",
        description: "Send a `Transaction`'s `jwsRepresentation` from the device. It is verified and stored before anything is linked.", result: "customer",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.conflict, ErrorCode.signedDataInvalid]
    ) { (params: LinkTransactionParams, call) in
        try await view(
            try await call.services.accounts.linkTransaction(
                tenant: call.caller.tenant, bundleId: params.bundleId, customerId: params.customerId, signedTransaction: params.signedTransaction,
                transfer: params.transfer ?? false, actor: call.caller.actor), call: call)
    }

    struct ResolveParams: RPCParams {
        let bundleId: String?
        let appAccountToken: UUID?
        let appTransactionId: String?
        let originalTransactionId: String?
        let transactionId: String?

        static let parameters: [RPCParam] = [
            RPCParam("bundleId", "The app's bundle ID (for transaction identifiers).", schema: AppView.bundleIdSchema, required: false),
            RPCParam("appAccountToken", "The customer's appAccountToken.", schema: Schema.string(format: "uuid"), required: false),
            RPCParam("appTransactionId", "An appTransactionId.", schema: Schema.string(pattern: "^[0-9]{1,32}$"), required: false),
            RPCParam("originalTransactionId", "An originalTransactionId.", schema: Schema.string(pattern: "^[0-9]{1,32}$"), required: false),
            RPCParam("transactionId", "A transactionId Storegate has stored.", schema: Schema.string(pattern: "^[0-9]{1,32}$"), required: false),
        ]
    }

    static let resolve = RPCMethod<RPCCall>(
        "accounts.resolve", tag: "accounts", summary: "Finds the customer from any identifier.",
        description: "Give exactly one of appAccountToken, appTransactionId, originalTransactionId, transactionId; the last three need bundleId.",
        result: "customer", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (params: ResolveParams, call) in
        try await view(
            try await call.services.accounts.resolve(
                tenant: call.caller.tenant, bundleId: params.bundleId, appAccountToken: params.appAccountToken, appTransactionId: params.appTransactionId,
                originalTransactionId: params.originalTransactionId, transactionId: params.transactionId), call: call)
    }
}

extension AccountMethods {
    struct SetAppAccountTokenParams: RPCParams {
        let bundleId: String
        let customerId: String
        let originalTransactionId: String
        let transfer: Bool?

        static let parameters: [RPCParam] = [
            AccountMethods.bundleId, AccountMethods.customerId,
            RPCParam("originalTransactionId", "The purchase's originalTransactionId.", schema: Schema.string(pattern: "^[0-9]{1,32}$")),
            AccountMethods.transfer,
        ]
    }

    static let setAppAccountToken = RPCMethod<RPCCall>(
        "accounts.setAppAccountToken", tag: "accounts", summary: "Gives a purchase made outside the app the customer's appAccountToken.",
        description: """
            Calls Apple's Set App Account Token for the originalTransactionId (an offer-code redemption, a purchase made on another device) \
            with the customer's appAccountToken, then links it. Family-shared purchases and IDs that are not original transaction IDs are \
            refused by Apple with a clear AppStoreError.
            """, result: "customer",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.conflict, ErrorCode.appStoreError, ErrorCode.keyUnavailable]
    ) { (params: SetAppAccountTokenParams, call) in
        try await view(
            try await call.services.accounts.setAppAccountToken(
                tenant: call.caller.tenant, bundleId: params.bundleId, customerId: params.customerId, originalTransactionId: params.originalTransactionId,
                transfer: params.transfer ?? false, actor: call.caller.actor), call: call)
    }
}
