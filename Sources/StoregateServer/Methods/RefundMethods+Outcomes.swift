import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// What to revoke after Apple's refund decisions, Apple's refund history, and order lookup.
extension RefundMethods {
    @RPCObject struct Revoke {
        let action: RevokeInstruction.Action
        @Field(.minimum(0)) let quantity: Int?
        let familyMembers: Bool
        let summary: String

        init(_ r: RevokeInstruction) {
            action = r.action
            quantity = r.quantity
            familyMembers = r.familyMembers
            summary = r.summary
        }
    }

    @RPCObject struct Outcome {
        @Field(.oneOf(RefundOutcome.outcomes.map(\.rawValue))) let outcome: String
        let bundleId: String
        let environment: String
        let transactionId: String
        let originalTransactionId: String
        let productId: String
        let productType: String
        @Field(.minimum(1)) let quantity: Int
        /// Apple's revocationPercentage, in milliunits (75000 is 75%).
        @Field(.minimum(0)) let refundPercentage: Int?
        @Field(.oneOf(["REFUND_FULL", "REFUND_PRORATED", "FAMILY_REVOKE"])) let revocationType: String?
        /// 0 other, 1 an issue in the app.
        let revocationReason: Int?
        let familyShared: Bool
        let customerId: String?
        let signedDate: Date?
        let revoke: Revoke
    }

    @RPCParams struct OutcomesParams {
        /// The app's bundle ID; required with a transaction ID.
        @Field(.bundleId) let bundleId: String?
        /// One transaction.
        @Field(.transactionId) let transactionId: String?
        /// One customer.
        @Field(.maxLength(128)) let customerId: String?
        /// At most this many (default 50).
        @Field(.range(1...200)) let limit: Int?
    }

    @RPCObject struct OutcomesResult {
        let outcomes: [Outcome]
    }

    static let outcomes = RPCMethod<RPCCall>(
        "refunds.outcomes", tag: "refunds", summary: "Apple's refund decisions and what to revoke for each.",
        description: """
            From REFUND, REFUND_DECLINED, REFUND_REVERSED and REVOKE (Family Sharing) notifications, newest first: for one transaction (with bundleId), one customer, \
            or one app. revoke.action is revokeQuantity (a consumable: the refunded fraction of its quantity, rounded down), revokeAccess \
            (anything else; familyMembers for REVOKE and FAMILY_REVOKE), none (declined) or restore (reversed).
            """, result: "refundOutcomes", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: OutcomesParams, call) in
        let rows = try await call.services.refunds.outcomes(
            tenant: call.caller.tenant, bundleId: p.bundleId, transactionId: p.transactionId, customerId: p.customerId, limit: p.limit ?? 50)
        let bundles = try await SubscriptionMethods.bundles(call, covering: rows.map(\.appId))
        let customers = try await call.services.accounts.customerIds(tenant: call.caller.tenant, ids: Set(rows.compactMap(\.customer)))
        return OutcomesResult(
            outcomes: rows.map {
                Outcome(
                    outcome: $0.outcome.rawValue, bundleId: bundles[$0.appId] ?? "", environment: $0.environment.rawValue, transactionId: $0.transactionId,
                    originalTransactionId: $0.originalTransactionId, productId: $0.productId, productType: $0.productType.rawValue, quantity: $0.quantity,
                    refundPercentage: $0.refundPercentage, revocationType: $0.revocationType?.rawValue,
                    revocationReason: $0.revocationReason.map { Int($0.rawValue) },
                    familyShared: $0.familyShared, customerId: $0.customer.flatMap { customers[$0] }, signedDate: $0.signedDate, revoke: Revoke($0.revoke))
            })
    }

    @RPCParams struct HistoryParams {
        @Field(.bundleId) let bundleId: String
        /// Any of the customer's transaction IDs.
        @Field(.transactionId) let transactionId: String
    }

    @RPCObject struct HistoryResult {
        let transactions: [TransactionView]
    }

    static let history = RPCMethod<RPCCall>(
        "refunds.history", tag: "refunds", summary: "Apple's refund history for the customer behind a transaction, every page.",
        description: "Apple's Get Refund History, all pages followed, each signed transaction verified.", result: "refundHistory",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError, ErrorCode.signedDataInvalid]
    ) { (p: HistoryParams, call) in
        HistoryResult(
            transactions: try await call.services.refunds.history(tenant: call.caller.tenant, bundleId: p.bundleId, transactionId: p.transactionId).map(
                TransactionView.init))
    }

    @RPCParams struct LookupParams {
        @Field(.bundleId) let bundleId: String
        /// The order ID, such as MK5TTTVWJH.
        @Field(.characters("A-Za-z0-9", count: 1...64)) let orderId: String
    }

    @RPCObject struct LookupResult {
        let orderId: String
        @Field(.oneOf(["valid", "invalid"])) let status: String
        let transactions: [TransactionView]
    }

    static let lookupOrder = RPCMethod<RPCCall>(
        "refunds.lookupOrder", tag: "refunds", summary: "Looks up an order ID from a customer's App Store receipt email.",
        description: "Apple's Look Up Order ID: `valid` with the order's verified transactions, or `invalid`.", result: "order",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError, ErrorCode.signedDataInvalid]
    ) { (p: LookupParams, call) in
        let (valid, transactions) = try await call.services.refunds.lookupOrder(tenant: call.caller.tenant, bundleId: p.bundleId, orderId: p.orderId)
        return LookupResult(orderId: p.orderId, status: valid ? "valid" : "invalid", transactions: transactions.map(TransactionView.init))
    }
}
