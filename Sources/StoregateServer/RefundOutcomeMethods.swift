import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// What to revoke after Apple's refund decisions, Apple's refund history, and order lookup.
extension RefundMethods {
    struct Revoke: Encodable, Sendable {
        let action: String
        let quantity: Int?
        let familyMembers: Bool
        let summary: String

        init(_ r: RevokeInstruction) {
            action = r.action.rawValue
            quantity = r.quantity
            familyMembers = r.familyMembers
            summary = r.summary
        }
    }

    struct Outcome: Encodable, Sendable {
        let outcome: String
        let bundleId: String
        let environment: String
        let transactionId: String
        let originalTransactionId: String
        let productId: String
        let productType: String
        let quantity: Int
        let refundPercentage: Int?
        let revocationType: String?
        let revocationReason: Int?
        let familyShared: Bool
        let customerId: String?
        let signedDate: Date?
        let revoke: Revoke
    }

    struct OutcomesParams: RPCParams {
        let bundleId: String?
        let transactionId: String?
        let customerId: String?
        let limit: Int?

        static let parameters: [RPCParam] = [
            SubscriptionMethods.optionalBundleId, RPCParam("transactionId", "One transaction.", schema: transactionIdSchema, required: false),
            RPCParam("customerId", "One customer.", schema: Schema.string(maxLength: 128), required: false),
            RPCParam("limit", "1 to 200, default 50.", schema: Schema.integer(minimum: 1), required: false),
        ]
    }

    struct OutcomesResult: RPCResult {
        let outcomes: [Outcome]

        static let schema: JSONValue = Schema.object(
            [
                (
                    "outcomes",
                    Schema.array(
                        of: Schema.object(
                            [
                                ("outcome", Schema.enumeration(RefundOutcome.outcomes.map(\.rawValue))), ("bundleId", Schema.string()),
                                ("environment", Schema.string()), ("transactionId", Schema.string()), ("originalTransactionId", Schema.string()),
                                ("productId", Schema.string()), ("productType", Schema.string()), ("quantity", Schema.integer(minimum: 1)),
                                ("refundPercentage", Schema.integer("Apple's revocationPercentage, in milliunits (75000 is 75%).", minimum: 0)),
                                ("revocationType", Schema.enumeration(["REFUND_FULL", "REFUND_PRORATED", "FAMILY_REVOKE"])),
                                ("revocationReason", Schema.integer("0 other, 1 an issue in the app.")), ("familyShared", ["type": "boolean"]),
                                ("customerId", Schema.string()), ("signedDate", Schema.string(format: "date-time")),
                                (
                                    "revoke",
                                    Schema.object(
                                        [
                                            ("action", Schema.enumeration(RevokeInstruction.Action.allCases.map(\.rawValue))),
                                            ("quantity", Schema.integer(minimum: 0)), ("familyMembers", ["type": "boolean"]), ("summary", Schema.string()),
                                        ], required: ["action", "familyMembers", "summary"])
                                ),
                            ],
                            required: [
                                "outcome", "bundleId", "environment", "transactionId", "originalTransactionId", "productId", "productType", "quantity",
                                "familyShared", "revoke",
                            ]))
                )
            ], required: ["outcomes"])
    }

    static let outcomes = RPCMethod<RPCCall>(
        "refunds.outcomes", tag: "refunds", summary: "Apple's refund decisions and what to revoke for each.",
        description: """
            From REFUND, REFUND_DECLINED, REFUND_REVERSED and REVOKE (Family Sharing) notifications, newest first: for one transaction (with bundleId), one customer, \
            or one app. revoke.action is revokeQuantity (a consumable: the refunded fraction of its quantity, rounded down), revokeAccess \
            (anything else; familyMembers for REVOKE and FAMILY_REVOKE), none (declined) or restore (reversed).
            """, result: "refundOutcomes", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: OutcomesParams, call) in
        let limit = p.limit ?? 50
        guard (1...200).contains(limit) else { throw StoregateError.invalid(field: "limit", reason: "must be 1 to 200") }
        let rows = try await call.services.refunds.outcomes(
            tenant: call.caller.tenant, bundleId: p.bundleId, transactionId: p.transactionId, customerId: p.customerId, limit: limit)
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

    struct HistoryParams: RPCParams {
        let bundleId: String
        let transactionId: String

        static let parameters: [RPCParam] = [
            RefundMethods.bundleId, RPCParam("transactionId", "Any of the customer's transaction IDs.", schema: transactionIdSchema),
        ]
    }

    struct HistoryResult: RPCResult {
        let transactions: [TransactionView]

        static let schema: JSONValue = Schema.object([("transactions", Schema.array(of: TransactionView.schema))], required: ["transactions"])
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

    struct LookupParams: RPCParams {
        let bundleId: String
        let orderId: String

        static let parameters: [RPCParam] = [
            RefundMethods.bundleId, RPCParam("orderId", "The order ID, such as MK5TTTVWJH.", schema: Schema.string(pattern: "^[A-Za-z0-9]{1,64}$")),
        ]
    }

    struct LookupResult: RPCResult {
        let orderId: String
        let status: String
        let transactions: [TransactionView]

        static let schema: JSONValue = Schema.object(
            [("orderId", Schema.string()), ("status", Schema.enumeration(["valid", "invalid"])), ("transactions", Schema.array(of: TransactionView.schema))],
            required: ["orderId", "status", "transactions"])
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
