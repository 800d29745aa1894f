import AppStoreServer
import Contract
import Foundation

// What `refunds.pending` and `refunds.outcomes` answer, each naming its app by bundle ID.

/// One of Apple's `CONSUMPTION_REQUEST`s and what Storegate did about it.
@RPCObject public struct ConsumptionRequestItem: Sendable {
    @Field(.uuid) public let id: String
    public let bundleId: String
    public let environment: String
    public let transactionId: String
    public let originalTransactionId: String
    public let productType: String
    /// Apple's consumptionRequestReason.
    public let reason: String?
    public let requestedAt: Date
    public let deadline: Date
    public let status: RefundRequest.Status
    public let statusReason: String?
    public let apiVersion: ConsumptionAPI?
    /// Exactly what was sent to Apple.
    @Field(.object) public let sentBody: JSONValue?
    public let sentAt: Date?
    @Field(.minimum(0)) public let attempts: Int
    public let lastError: String?

    init(_ r: RefundRequest, bundleId: String) throws {
        id = r.id.uuidString.lowercased()
        self.bundleId = bundleId
        environment = r.environment.rawValue
        transactionId = r.transactionId
        originalTransactionId = r.originalTransactionId
        productType = r.productType.rawValue
        reason = r.reason?.rawValue
        requestedAt = r.requestedAt
        deadline = r.deadline
        status = r.status
        statusReason = r.statusReason
        apiVersion = r.apiVersion
        sentBody = try r.sentBody.map { try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
        sentAt = r.sentAt
        attempts = r.attempts
        lastError = r.lastError
    }
}

/// One of Apple's refund decisions, with what to revoke for it.
@RPCObject public struct RefundOutcomeItem: Sendable {
    @Field(.oneOf(RefundOutcome.outcomes.map(\.rawValue))) public let outcome: String
    public let bundleId: String
    public let environment: String
    public let transactionId: String
    public let originalTransactionId: String
    public let productId: String
    public let productType: String
    @Field(.minimum(1)) public let quantity: Int
    /// Apple's revocationPercentage, in milliunits (75000 is 75%).
    @Field(.minimum(0)) public let refundPercentage: Int?
    @Field(.oneOf(["REFUND_FULL", "REFUND_PRORATED", "FAMILY_REVOKE"])) public let revocationType: String?
    /// 0 other, 1 an issue in the app.
    public let revocationReason: Int?
    /// When Apple refunded (or revoked) the transaction.
    public let revocationDate: Date?
    public let familyShared: Bool
    public let customerId: String?
    public let signedDate: Date?
    /// `notification` (Apple's notification), or `refundHistory` (found by `refunds.history`: the
    /// notification was missed).
    @Field(.oneOf(RefundOutcome.Source.allCases.map(\.rawValue))) public let source: String
    public let revoke: RevokeInstruction

    init(_ o: RefundOutcome, bundleId: String, customerId: String?) {
        outcome = o.outcome.rawValue
        self.bundleId = bundleId
        environment = o.environment.rawValue
        transactionId = o.transactionId
        originalTransactionId = o.originalTransactionId
        productId = o.productId
        productType = o.productType.rawValue
        quantity = o.quantity
        refundPercentage = o.refundPercentage
        revocationType = o.revocationType?.rawValue
        revocationReason = o.revocationReason.map { Int($0.rawValue) }
        revocationDate = o.revocationDate
        source = o.source.rawValue
        familyShared = o.familyShared
        self.customerId = customerId
        signedDate = o.signedDate
        revoke = o.revoke
    }
}
