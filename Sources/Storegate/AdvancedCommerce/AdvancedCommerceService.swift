import AppStoreServer
import Foundation

/// The Advanced Commerce API's server operations for a tenant's app: cancel, revoke, request a refund,
/// change the price or the metadata, migrate. Each is checked before Apple is called (the app is the
/// tenant's, the transaction ID is one, a subscription operation names a subscription when Storegate knows
/// the transaction), sent in the environment Storegate knows the transaction from (else Production, then
/// Sandbox), its signed answer verified, and audited with its `requestReferenceId`. Storegate's state is
/// not changed here: what the operation changes arrives, as with Apple, by notification.
public struct AdvancedCommerceService: Sendable {
    let persistence: any Persistence
    let gateway: AppStoreGateway
    let verification: Verification

    /// The operations, as audited (`apple.advancedCommerce.<operation>`) and named by the RPC.
    public enum Operation: String, Sendable {
        case cancel, revoke, requestRefund, changePrice, changeMetadata, migrate

        /// Whether the operation acts on a subscription (a refund request acts on any transaction).
        var subscriptionOnly: Bool { self != .requestRefund }
    }

    /// Apple's answer: the transaction (and a subscription's renewal info) as they stand, verified.
    public struct Outcome: Sendable {
        public let environment: AppStoreEnvironment
        public let transaction: JWSTransactionDecodedPayload
        public let renewal: JWSRenewalInfoDecodedPayload?
    }

    /// Runs `operation` for `transactionId`: `send` makes Apple's call with the client of an environment and
    /// returns the signed transaction and renewal info Apple answered.
    public func perform(
        _ operation: Operation, tenant: Tenant, bundleId: String, transactionId: String, requestReferenceId: UUID, actor: Actor,
        _ send: @Sendable (AppStoreServerAPIClient, String) async throws(AppStoreServerAPIError) -> (signedTransaction: String, signedRenewal: String?)
    ) async throws -> Outcome {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        let id = try Validate.transactionId(transactionId, field: "transactionId")
        let known = try await persistence.inTenant(tenant, .read) { try await $0.transactions.facts(appId: app.id, transactionId: id) }
        if operation.subscriptionOnly, let known, known.productType != .autoRenewableSubscription {
            throw StoregateError.invalid(field: "transactionId", reason: "is a \(known.productType.rawValue) purchase, not an auto-renewable subscription")
        }
        let (signed, environment) = try await gateway.firstEnvironment(tenant: tenant, app: app, preferring: known?.environment, field: "transactionId") {
            client throws(AppStoreServerAPIError) in try await send(client, id)
        }
        let purchase = try await verification.purchase(
            signedTransaction: signed.signedTransaction, signedRenewalInfo: signed.signedRenewal, app: app, environment: environment,
            field: "signedTransactionInfo")
        try await persistence.inTenant(tenant, .read) { unit in
            try await unit.audit(
                actor, "apple.advancedCommerce.\(operation.rawValue)",
                [
                    "bundleId": app.bundleId, "transactionId": id, "environment": environment.rawValue,
                    "requestReferenceId": requestReferenceId.uuidString.lowercased(),
                ])
        }
        return Outcome(environment: environment, transaction: purchase.transaction, renewal: purchase.renewal)
    }
}
