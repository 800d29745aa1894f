import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// What to revoke after Apple's refund decisions, Apple's refund history, and order lookup.
extension RefundMethods {
    @RPCParams struct OutcomesParams {
        /// The app's bundle ID; required with a transaction ID.
        @Field(.bundleId) let bundleId: String?
        /// One transaction.
        @Field(.transactionId) let transactionId: String?
        /// One customer.
        @Field(.maxLength(128)) let customerId: String?
        /// At most this many.
        @Field(.page(RefundService.outcomesPage)) let limit: Int?
    }

    @RPCObject struct OutcomesResult {
        let outcomes: [RefundOutcomeItem]
    }

    static let outcomes = RPCMethod<RPCCall>(
        "refunds.outcomes", tag: "refunds", summary: "Apple's refund decisions and what to revoke for each.",
        description: """
            From REFUND, REFUND_DECLINED, REFUND_REVERSED and REVOKE (Family Sharing) notifications, and refunds found by refunds.history \
            (source), newest first: for one transaction (with bundleId), one customer, \
            or one app. revoke.action is revokeQuantity (a consumable: the refunded fraction of its quantity, rounded down), revokeAccess \
            (anything else; familyMembers for REVOKE and FAMILY_REVOKE), none (declined) or restore (reversed).
            """, result: "refundOutcomes", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: OutcomesParams, call) in
        OutcomesResult(
            outcomes: try await call.capabilities.refunds.outcomes(
                tenant: call.caller.tenant, bundleId: p.bundleId, transactionId: p.transactionId, customerId: p.customerId, limit: p.limit))
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
        description: """
            Apple's Get Refund History, all pages followed, each signed transaction verified and stored. A refund Storegate had not heard \
            of (its REFUND notification was missed) becomes its refund outcome (`source: refundHistory`) and `refund.granted` event here; \
            a refund is recorded once however it is found, so the notification arriving later adds nothing.
            """, result: "refundHistory",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError, ErrorCode.signedDataInvalid]
    ) { (p: HistoryParams, call) in
        HistoryResult(
            transactions: try await call.capabilities.refunds.history(tenant: call.caller.tenant, bundleId: p.bundleId, transactionId: p.transactionId).map(
                TransactionView.init))
    }

    @RPCParams struct LookupParams {
        @Field(.bundleId) let bundleId: String
        /// The order ID, such as MK5TTTVWJH.
        @Field(.orderId) let orderId: String
        /// The customer to link the order's transactions to when Apple's data names no owner (created on first use).
        @Field(.customerId) let customerId: String?
    }

    @RPCObject struct LookupResult {
        let orderId: String
        @Field(.oneOf(["valid", "invalid"])) let status: String
        let transactions: [TransactionView]
        /// The customer the order's transactions belong to, when known.
        let customerId: String?
    }

    static let lookupOrder = RPCMethod<RPCCall>(
        "refunds.lookupOrder", tag: "refunds", summary: "Looks up an order ID from a customer's App Store invoice, and keeps it.",
        description: """
            Apple's Look Up Order ID: `valid` with the order's verified transactions, or `invalid`. A valid order's transactions are stored \
            with the order ID and linked to their customer (the owner Apple's data names, else customerId), so accounts.resolve finds the \
            customer by orderId.
            """, result: "order",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError, ErrorCode.signedDataInvalid]
    ) { (p: LookupParams, call) in
        let order = try await call.capabilities.refunds.lookupOrder(
            tenant: call.caller.tenant, bundleId: p.bundleId, orderId: p.orderId, customerId: p.customerId, actor: call.caller.actor)
        return LookupResult(
            orderId: p.orderId, status: order.valid ? "valid" : "invalid", transactions: order.transactions.map(TransactionView.init),
            customerId: order.customerId)
    }
}
