import Foundation
import JSONRPC
import Storegate

/// `accounts.*`: customers, their `appAccountToken`, and the App Store identifiers linked to them.
enum AccountMethods {
    static let all = [ensure, linkAppTransaction, linkTransaction, setAppAccountToken, resolve]

    @RPCParams struct EnsureParams {
        @Field(.customerId) let customerId: String
    }

    static let ensure = RPCMethod<RPCCall>(
        "accounts.ensure", tag: "accounts", summary: "The customer, created on first use, with a stable appAccountToken.",
        description: "StoreKit: `product.purchase(options: [.appAccountToken(UUID(uuidString: appAccountToken)!)])`.", result: "customer",
        errors: [ErrorCode.invalidParams]
    ) { (params: EnsureParams, call) in
        try await call.capabilities.accounts.ensure(tenant: call.caller.tenant, customerId: params.customerId, actor: call.caller.actor)
    }

    @RPCParams struct LinkAppTransactionParams: LinkParams {
        @Field(.bundleId) let bundleId: String
        @Field(.customerId) let customerId: String
        /// The AppTransaction JWS.
        let signedAppTransaction: String
        @Field(.transfer) let transfer: Bool?
        var signed: DeviceSignedData { .appTransaction(signedAppTransaction) }
    }

    static let linkAppTransaction = linking(
        LinkAppTransactionParams.self, "accounts.linkAppTransaction", summary: "Links the appTransactionId of a signed AppTransaction to the customer.",
        description: "Send `AppTransaction.shared`'s `jwsRepresentation` from the device. It is verified before anything is linked.")

    @RPCParams struct LinkTransactionParams: LinkParams {
        @Field(.bundleId) let bundleId: String
        @Field(.customerId) let customerId: String
        /// The transaction JWS.
        let signedTransaction: String
        @Field(.transfer) let transfer: Bool?
        var signed: DeviceSignedData { .transaction(signedTransaction) }
    }

    static let linkTransaction = linking(
        LinkTransactionParams.self, "accounts.linkTransaction",
        summary: "Links a signed transaction's originalTransactionId and appTransactionId to the customer.",
        description: "Send a `Transaction`'s `jwsRepresentation` from the device. It is verified and stored before anything is linked.")

    /// What the two linking methods' parameters share: the JWS each names its own way.
    protocol LinkParams: Sendable {
        var bundleId: String { get }
        var customerId: String { get }
        var transfer: Bool? { get }
        var signed: DeviceSignedData { get }
    }

    /// A method linking signed data from the customer's device (`AccountService.link`).
    static func linking<Params: RPCParams & LinkParams>(
        _ params: Params.Type, _ name: String, summary: String, description: String
    ) -> RPCMethod<RPCCall> {
        RPCMethod<RPCCall>(
            name, tag: "accounts", summary: summary, description: description, result: "customer",
            errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.conflict, ErrorCode.signedDataInvalid]
        ) { (params: Params, call) in
            try await call.capabilities.accounts.link(
                params.signed, tenant: call.caller.tenant, bundleId: params.bundleId, customerId: params.customerId, transfer: params.transfer ?? false,
                actor: call.caller.actor)
        }
    }

    @RPCParams struct ResolveParams {
        /// The app's bundle ID (for transaction identifiers).
        @Field(.bundleId) let bundleId: String?
        /// The customer's appAccountToken.
        let appAccountToken: UUID?
        /// An appTransactionId.
        @Field(.transactionId) let appTransactionId: String?
        /// An originalTransactionId.
        @Field(.transactionId) let originalTransactionId: String?
        /// A transactionId Storegate has stored.
        @Field(.transactionId) let transactionId: String?
        /// An order ID kept by refunds.lookupOrder.
        @Field(.orderId) let orderId: String?
    }

    static let resolve = RPCMethod<RPCCall>(
        "accounts.resolve", tag: "accounts", summary: "Finds the customer from any identifier.",
        description: """
            Give exactly one of appAccountToken, appTransactionId, originalTransactionId, transactionId, orderId; the transaction IDs need \
            bundleId (an orderId takes it to narrow to one app).
            """,
        result: "customer", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (params: ResolveParams, call) in
        try await call.capabilities.accounts.resolve(
            tenant: call.caller.tenant, bundleId: params.bundleId, appAccountToken: params.appAccountToken, appTransactionId: params.appTransactionId,
            originalTransactionId: params.originalTransactionId, transactionId: params.transactionId, orderId: params.orderId)
    }
}

extension Rule {
    /// Whether to move identifiers already linked to another customer.
    static let transfer = Rule(description: "Move identifiers already linked to another customer (audited). Without it such a link is refused.")
}

extension AccountMethods {
    @RPCParams struct SetAppAccountTokenParams {
        @Field(.bundleId) let bundleId: String
        @Field(.customerId) let customerId: String
        /// The purchase's originalTransactionId.
        @Field(.transactionId) let originalTransactionId: String
        @Field(.transfer) let transfer: Bool?
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
        try await call.capabilities.accounts.setAppAccountToken(
            tenant: call.caller.tenant, bundleId: params.bundleId, customerId: params.customerId, originalTransactionId: params.originalTransactionId,
            transfer: params.transfer ?? false, actor: call.caller.actor)
    }
}
