import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `refunds.*`: consumption facts for Apple's refund decisions, what Apple decided, and what to revoke.
enum RefundMethods {
    static let all = [reportConsumption, setPolicy, pending, outcomes, history, lookupOrder]

    static let bundleId = SubscriptionMethods.bundleId
    static let transactionIdSchema = SubscriptionMethods.transactionIdSchema
    static let deliveryStatuses = DeliveryStatus.known.map(\.rawValue)
    static let refundPreferences = RefundPreference.known.map(\.rawValue)

    struct ReportParams: RPCParams {
        let bundleId: String
        let transactionId: String
        let customerConsented: Bool
        let deliveryStatus: DeliveryStatus
        let sampleContentProvided: Bool
        let consumptionPercentage: Int32?
        let refundPreference: RefundPreference?
        let playTime: Int32?
        let accountTenure: Int32?
        let lifetimeDollarsPurchased: Int32?
        let lifetimeDollarsRefunded: Int32?
        let userStatus: Int32?
        let platform: Int32?

        static let parameters: [RPCParam] = [
            RefundMethods.bundleId, RPCParam("transactionId", "The transaction Apple asked about.", schema: transactionIdSchema),
            RPCParam("customerConsented", "Whether the customer consented to sharing consumption data with Apple.", schema: ["type": "boolean"]),
            RPCParam("deliveryStatus", "Whether the purchase was delivered and works.", schema: Schema.enumeration(deliveryStatuses)),
            RPCParam("sampleContentProvided", "Whether a free sample or trial was provided before purchase.", schema: ["type": "boolean"]),
            RPCParam(
                "consumptionPercentage", "How much was consumed, in milliunits: 0 to 100000 (50% is 50000).", schema: Schema.integer(minimum: 0),
                required: false),
            RPCParam("refundPreference", "Your preference for Apple's decision.", schema: Schema.enumeration(refundPreferences), required: false),
            v1Code("playTime", "0 undeclared … 7 over 16 days"), v1Code("accountTenure", "0 undeclared … 7 over 365 days"),
            v1Code("lifetimeDollarsPurchased", "0 undeclared … 7 $2000 and more"), v1Code("lifetimeDollarsRefunded", "0 undeclared … 7 $2000 and more"),
            v1Code("userStatus", "0 undeclared, 1 active, 2 suspended, 3 terminated, 4 limited access"),
            v1Code("platform", "0 undeclared, 1 Apple, 2 non-Apple"),
        ]
    }

    struct ReportResult: RPCResult {
        let transactionId: String
        /// The open `CONSUMPTION_REQUEST` these facts now answer, if any.
        let pendingRequestId: String?
        let deadline: Date?

        static let schema: JSONValue = Schema.object(
            [("transactionId", Schema.string()), ("pendingRequestId", Schema.string(format: "uuid")), ("deadline", Schema.string(format: "date-time"))],
            required: ["transactionId"])
    }

    static func v1Code(_ name: String, _ doc: String) -> RPCParam {
        RPCParam(name, "v1 only: Apple's \(name) code (\(doc)).", schema: Schema.integer(minimum: 0), required: false)
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
        let reported = try await call.services.refunds.reportConsumption(
            tenant: call.caller.tenant, bundleId: p.bundleId, transactionId: p.transactionId, facts: facts, actor: call.caller.actor)
        if reported.pendingRequest != nil { call.services.worker.poke() }
        return ReportResult(
            transactionId: reported.transactionId, pendingRequestId: reported.pendingRequest?.id.uuidString.lowercased(),
            deadline: reported.pendingRequest?.deadline)
    }

    struct PolicyParams: RPCParams {
        let bundleId: String
        let consumptionApi: String?
        let sendMinutesBeforeDeadline: Int?
        let customerConsented: Bool?
        let deliveryStatus: DeliveryStatus?
        let sampleContentProvided: Bool?
        let refundPreference: RefundPreference?
        let declineAfterRefunds: Int?

        static let parameters: [RPCParam] = [
            RefundMethods.bundleId,
            RPCParam(
                "consumptionApi", "v2 (Send Consumption Information) or the deprecated v1.",
                schema: Schema.enumeration(ConsumptionAPI.allCases.map(\.rawValue)),
                required: false),
            RPCParam("sendMinutesBeforeDeadline", "10 to 690.", schema: Schema.integer(minimum: 10), required: false),
            RPCParam(
                "customerConsented", "Your customers consented (in your terms) to sharing consumption data.", schema: ["type": "boolean"], required: false),
            RPCParam("deliveryStatus", "Default DELIVERED.", schema: Schema.enumeration(deliveryStatuses), required: false),
            RPCParam("sampleContentProvided", "Default false.", schema: ["type": "boolean"], required: false),
            RPCParam("refundPreference", "Default none.", schema: Schema.enumeration(refundPreferences), required: false),
            RPCParam("declineAfterRefunds", "Prefer DECLINE from this many earlier refunds.", schema: Schema.integer(minimum: 1), required: false),
        ]
    }

    static let policySchema = Schema.object(
        [
            ("consumptionApi", Schema.enumeration(ConsumptionAPI.allCases.map(\.rawValue))), ("sendMinutesBeforeDeadline", Schema.integer(minimum: 10)),
            ("customerConsented", ["type": "boolean"]), ("deliveryStatus", Schema.enumeration(deliveryStatuses)),
            ("sampleContentProvided", ["type": "boolean"]),
            ("refundPreference", Schema.enumeration(refundPreferences)), ("declineAfterRefunds", Schema.integer(minimum: 1)),
        ], required: ["consumptionApi", "customerConsented", "deliveryStatus", "sampleContentProvided"], title: "RefundPolicy")

    static let setPolicy = RPCMethod<RPCCall>(
        "refunds.setPolicy", tag: "refunds", summary: "Sets how an app's CONSUMPTION_REQUESTs are answered when no facts were reported.",
        description: """
            Replaces the app's policy (omitted fields take their defaults). Without reported facts, Storegate answers \
            sendMinutesBeforeDeadline minutes before Apple's 12-hour deadline (omit it to never answer without facts) with the policy's \
            consent, delivery status and sample flag, DECLINE when the customer already had declineAfterRefunds refunds, the policy's \
            refundPreference otherwise, and for v1 the customer's account tenure. Defaults: v2, 60 minutes, no consent (so nothing is sent). Audited.
            """, result: "policy", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: PolicyParams, call) in
        var policy = RefundPolicy()
        if let v = p.consumptionApi {
            guard let api = ConsumptionAPI(rawValue: v) else { throw StoregateError.invalid(field: "consumptionApi", reason: "must be v1 or v2") }
            policy.consumptionApi = api
        }
        policy.sendMinutesBeforeDeadline = p.sendMinutesBeforeDeadline ?? policy.sendMinutesBeforeDeadline
        if let v = p.customerConsented { policy.customerConsented = v }
        if let v = p.deliveryStatus { policy.deliveryStatus = v }
        if let v = p.sampleContentProvided { policy.sampleContentProvided = v }
        policy.refundPreference = p.refundPreference
        policy.declineAfterRefunds = p.declineAfterRefunds
        return try await call.services.refunds.setPolicy(tenant: call.caller.tenant, bundleId: p.bundleId, policy: policy, actor: call.caller.actor)
    }

    struct PendingParams: RPCParams {
        let bundleId: String?
        let status: String?
        let limit: Int?

        static let parameters: [RPCParam] = [
            SubscriptionMethods.optionalBundleId,
            RPCParam("status", "Default pending.", schema: Schema.enumeration(RefundRequest.Status.allCases.map(\.rawValue)), required: false),
            RPCParam("limit", "1 to 200, default 50.", schema: Schema.integer(minimum: 1), required: false),
        ]
    }

    struct Request: Encodable, Sendable {
        let id: String
        let bundleId: String
        let environment: String
        let transactionId: String
        let originalTransactionId: String
        let productType: String
        let reason: String?
        let requestedAt: Date
        let deadline: Date
        let status: String
        let statusReason: String?
        let apiVersion: String?
        let sentBody: RawJSON?
        let sentAt: Date?
        let attempts: Int
        let lastError: String?
    }

    struct PendingResult: RPCResult {
        let requests: [Request]

        static let schema: JSONValue = Schema.object(
            [
                (
                    "requests",
                    Schema.array(
                        of: Schema.object(
                            [
                                ("id", Schema.string(format: "uuid")), ("bundleId", Schema.string()), ("environment", Schema.string()),
                                ("transactionId", Schema.string()), ("originalTransactionId", Schema.string()), ("productType", Schema.string()),
                                ("reason", Schema.string("Apple's consumptionRequestReason.")), ("requestedAt", Schema.string(format: "date-time")),
                                ("deadline", Schema.string(format: "date-time")), ("status", Schema.enumeration(RefundRequest.Status.allCases.map(\.rawValue))),
                                ("statusReason", Schema.string()), ("apiVersion", Schema.enumeration(["v2", "v1"])),
                                ("sentBody", ["type": "object", "description": "Exactly what was sent to Apple."]),
                                ("sentAt", Schema.string(format: "date-time")),
                                ("attempts", Schema.integer(minimum: 0)), ("lastError", Schema.string()),
                            ],
                            required: [
                                "id", "bundleId", "environment", "transactionId", "originalTransactionId", "productType", "requestedAt", "deadline", "status",
                                "attempts",
                            ]))
                )
            ], required: ["requests"])
    }

    static let pending = RPCMethod<RPCCall>(
        "refunds.pending", tag: "refunds", summary: "Apple's CONSUMPTION_REQUESTs and what Storegate did about each.",
        description: "Newest first; by default only those still pending (status: pending, sent, not_sent or expired to see others).",
        result: "consumptionRequests", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: PendingParams, call) in
        let limit = p.limit ?? 50
        guard (1...200).contains(limit) else { throw StoregateError.invalid(field: "limit", reason: "must be 1 to 200") }
        guard let status = RefundRequest.Status(rawValue: p.status ?? "pending") else {
            throw StoregateError.invalid(field: "status", reason: "must be pending, sent, not_sent or expired")
        }
        let rows = try await call.services.refunds.requests(tenant: call.caller.tenant, bundleId: p.bundleId, status: status, limit: limit)
        let bundles = try await SubscriptionMethods.bundles(call, covering: rows.map(\.appId))
        return PendingResult(
            requests: try rows.map {
                Request(
                    id: $0.id.uuidString.lowercased(), bundleId: bundles[$0.appId] ?? "", environment: $0.environment.rawValue, transactionId: $0.transactionId,
                    originalTransactionId: $0.originalTransactionId, productType: $0.productType.rawValue, reason: $0.reason?.rawValue,
                    requestedAt: $0.requestedAt,
                    deadline: $0.deadline, status: $0.status.rawValue, statusReason: $0.statusReason, apiVersion: $0.apiVersion?.rawValue,
                    sentBody: try $0.sentBody.map { RawJSON(value: try JSONParser.parse(Array($0.utf8))) }, sentAt: $0.sentAt, attempts: $0.attempts,
                    lastError: $0.lastError)
            })
    }
}

extension RefundPolicy: RPCResult {
    public static var schema: JSONValue { RefundMethods.policySchema }
}
