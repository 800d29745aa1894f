import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `refunds.*`: consumption facts for Apple's refund decisions, what Apple decided, and what to revoke.
enum RefundMethods {
    static let all = [reportConsumption, setPolicy, getPolicy, pending, outcomes, history, lookupOrder]

    @RPCParams struct ReportParams {
        @Field(.bundleId) let bundleId: String
        /// The transaction Apple asked about.
        @Field(.transactionId) let transactionId: String
        /// Whether the customer consented to sharing consumption data with Apple.
        let customerConsented: Bool
        /// Whether the purchase was delivered and works.
        let deliveryStatus: DeliveryStatus
        /// Whether a free sample or trial was provided before purchase.
        let sampleContentProvided: Bool
        /// How much was consumed, in milliunits (50% is 50000).
        @Field(.range(0...100_000)) let consumptionPercentage: Int32?
        /// Your preference for Apple's decision.
        let refundPreference: RefundPreference?
        /// v1 only: Apple's playTime code (0 undeclared … 7 over 16 days).
        @Field(.range(0...7)) let playTime: Int32?
        /// v1 only: Apple's accountTenure code (0 undeclared … 7 over 365 days).
        @Field(.range(0...7)) let accountTenure: Int32?
        /// v1 only: Apple's lifetimeDollarsPurchased code (0 undeclared … 7 $2000 and more).
        @Field(.range(0...7)) let lifetimeDollarsPurchased: Int32?
        /// v1 only: Apple's lifetimeDollarsRefunded code (0 undeclared … 7 $2000 and more).
        @Field(.range(0...7)) let lifetimeDollarsRefunded: Int32?
        /// v1 only: Apple's userStatus code (0 undeclared, 1 active, 2 suspended, 3 terminated, 4 limited access).
        @Field(.range(0...4)) let userStatus: Int32?
        /// v1 only: Apple's platform code (0 undeclared, 1 Apple, 2 non-Apple).
        @Field(.range(0...2)) let platform: Int32?
    }

    @RPCObject struct ReportResult {
        let transactionId: String
        /// The open `CONSUMPTION_REQUEST` these facts now answer, if any.
        @Field(.uuid) let pendingRequestId: String?
        let deadline: Date?
    }

    static let reportConsumption = RPCMethod<RPCCall>(
        "refunds.reportConsumption", tag: "refunds", summary: "Reports a transaction's consumption facts for Apple's refund decision.",
        description: """
            Stored per transaction. When a CONSUMPTION_REQUEST for it is open, Storegate sends Send Consumption Information (v2; v1 when the app's \
            refund policy says so) right away, from a durable job queue that retries and honours Retry-After. Without customerConsented nothing \
            is sent and the reason is recorded. consumptionPercentage is required with GRANT_PRORATED for anything but a subscription.
            """, result: "reported", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: ReportParams, call) in
        let facts = ConsumptionFacts(
            customerConsented: p.customerConsented, deliveryStatus: p.deliveryStatus, sampleContentProvided: p.sampleContentProvided,
            consumptionPercentage: p.consumptionPercentage, refundPreference: p.refundPreference, playTime: p.playTime, accountTenure: p.accountTenure,
            lifetimeDollarsPurchased: p.lifetimeDollarsPurchased, lifetimeDollarsRefunded: p.lifetimeDollarsRefunded, userStatus: p.userStatus,
            platform: p.platform)
        let reported = try await call.capabilities.refunds.reportConsumption(
            tenant: call.caller.tenant, bundleId: p.bundleId, transactionId: p.transactionId, facts: facts, actor: call.caller.actor)
        return ReportResult(
            transactionId: reported.transactionId, pendingRequestId: reported.pendingRequest?.id.uuidString.lowercased(),
            deadline: reported.pendingRequest?.deadline)
    }

    @RPCParams struct PolicyParams {
        @Field(.bundleId) let bundleId: String
        /// v2 (Send Consumption Information) or the deprecated v1.
        let consumptionApi: ConsumptionAPI?
        /// Minutes before Apple's deadline to answer without facts.
        @Field(.range(10...690)) let sendMinutesBeforeDeadline: Int?
        /// Your customers consented (in your terms) to sharing consumption data.
        let customerConsented: Bool?
        /// Default DELIVERED.
        let deliveryStatus: DeliveryStatus?
        /// Default false.
        let sampleContentProvided: Bool?
        /// Default none.
        let refundPreference: RefundPreference?
        /// Prefer DECLINE from this many earlier refunds.
        @Field(.minimum(1)) let declineAfterRefunds: Int?
    }

    static let setPolicy = RPCMethod<RPCCall>(
        "refunds.setPolicy", tag: "refunds", summary: "Sets how an app's CONSUMPTION_REQUESTs are answered when no facts were reported.",
        description: """
            Replaces the app's policy (omitted fields take their defaults). Without reported facts, Storegate answers \
            sendMinutesBeforeDeadline minutes before Apple's 12-hour deadline (omit it to never answer without facts) with the policy's \
            consent, delivery status and sample flag, DECLINE when the customer already had declineAfterRefunds refunds, the policy's \
            refundPreference otherwise, and for v1 the customer's account tenure. Defaults: v2, 60 minutes, no consent (so nothing is sent). Audited.
            """, result: "policy", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: PolicyParams, call) in
        let policy = RefundPolicy(
            consumptionApi: p.consumptionApi, sendMinutesBeforeDeadline: p.sendMinutesBeforeDeadline, customerConsented: p.customerConsented,
            deliveryStatus: p.deliveryStatus, sampleContentProvided: p.sampleContentProvided, refundPreference: p.refundPreference,
            declineAfterRefunds: p.declineAfterRefunds)
        return try await call.capabilities.refunds.setPolicy(tenant: call.caller.tenant, bundleId: p.bundleId, policy: policy, actor: call.caller.actor)
    }

    @RPCParams struct GetPolicyParams {
        @Field(.bundleId) let bundleId: String
    }

    static let getPolicy = RPCMethod<RPCCall>(
        "refunds.getPolicy", tag: "refunds", summary: "How an app's CONSUMPTION_REQUESTs are answered when no facts were reported.",
        description: "The policy `refunds.setPolicy` set, or the defaults when none was.", result: "policy",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: GetPolicyParams, call) in
        try await call.capabilities.refunds.policy(tenant: call.caller.tenant, bundleId: p.bundleId)
    }

    @RPCParams struct PendingParams {
        /// The app's bundle ID; all apps when absent.
        @Field(.bundleId) let bundleId: String?
        /// Default pending.
        let status: RefundRequest.Status?
        /// At most this many.
        @Field(.page(RefundService.requestsPage)) let limit: Int?
    }

    @RPCObject struct PendingResult {
        let requests: [ConsumptionRequestItem]
    }

    static let pending = RPCMethod<RPCCall>(
        "refunds.pending", tag: "refunds", summary: "Apple's CONSUMPTION_REQUESTs and what Storegate did about each.",
        description: "Newest first; by default only those still pending (status: pending, sent, not_sent or expired to see others).",
        result: "consumptionRequests", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: PendingParams, call) in
        PendingResult(
            requests: try await call.capabilities.refunds.requests(
                tenant: call.caller.tenant, bundleId: p.bundleId, status: p.status, limit: p.limit))
    }
}
