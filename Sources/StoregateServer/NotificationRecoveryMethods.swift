import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `notifications.requestTest`, `notifications.testStatus`, `notifications.backfill`.
extension NotificationMethods {
    static let bundleId = SubscriptionMethods.bundleId
    static let environment = SubscriptionMethods.environment

    struct TestParams: RPCParams {
        let bundleId: String
        let environment: AppStoreEnvironment?

        static let parameters: [RPCParam] = [NotificationMethods.bundleId, NotificationMethods.environment]
    }

    struct TestToken: RPCResult {
        let testNotificationToken: String

        static let schema: JSONValue = Schema.object([("testNotificationToken", Schema.string())], required: ["testNotificationToken"])
    }

    static let requestTest = RPCMethod<RPCCall>(
        "notifications.requestTest", tag: "notifications", summary: "Asks Apple to send a TEST notification to the app's notification URL.",
        description: "Apple's Request a Test Notification. Check delivery with `notifications.testStatus`.", result: "testNotification",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError]
    ) { (p: TestParams, call) in
        TestToken(
            testNotificationToken: try await call.services.notifications.requestTest(
                tenant: call.caller.tenant, bundleId: p.bundleId, environment: p.environment))
    }

    struct TestStatusParams: RPCParams {
        let bundleId: String
        let environment: AppStoreEnvironment?
        let testNotificationToken: String

        static let parameters: [RPCParam] = [
            NotificationMethods.bundleId, NotificationMethods.environment,
            RPCParam("testNotificationToken", "From notifications.requestTest.", schema: Schema.string(maxLength: 512)),
        ]
    }

    struct Attempt: Encodable, Sendable {
        let attemptDate: Date?
        let sendAttemptResult: String?
    }

    struct TestStatusResult: RPCResult {
        let sendAttempts: [Attempt]
        let receivedByStoregate: Bool

        static let schema: JSONValue = Schema.object(
            [
                (
                    "sendAttempts",
                    Schema.array(
                        of: Schema.object(
                            [
                                ("attemptDate", Schema.string(format: "date-time")),
                                ("sendAttemptResult", Schema.string("Apple's sendAttemptResult, e.g. SUCCESS.")),
                            ],
                            required: []))
                ), ("receivedByStoregate", ["type": "boolean"]),
            ], required: ["sendAttempts", "receivedByStoregate"])
    }

    static let testStatus = RPCMethod<RPCCall>(
        "notifications.testStatus", tag: "notifications", summary: "Apple's delivery attempts for a test notification, and whether Storegate stored it.",
        result: "testNotificationStatus", errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError]
    ) { (p: TestStatusParams, call) in
        let (attempts, received) = try await call.services.notifications.testStatus(
            tenant: call.caller.tenant, bundleId: p.bundleId, environment: p.environment, token: p.testNotificationToken)
        return TestStatusResult(
            sendAttempts: attempts.map { Attempt(attemptDate: $0.attemptDate?.date, sendAttemptResult: $0.sendAttemptResult?.rawValue) },
            receivedByStoregate: received)
    }

    struct BackfillParams: RPCParams {
        let bundleId: String
        let environment: AppStoreEnvironment?
        let startDate: Date
        let endDate: Date?

        static let parameters: [RPCParam] = [
            NotificationMethods.bundleId, NotificationMethods.environment,
            RPCParam("startDate", "ISO 8601, within the last 180 days.", schema: Schema.string(format: "date-time")),
            RPCParam("endDate", "ISO 8601 (default: now).", schema: Schema.string(format: "date-time"), required: false),
        ]
    }

    struct BackfillResult: RPCResult {
        let seen: Int
        let stored: Int
        let alreadyStored: Int
        let rejected: Int

        static let schema: JSONValue = Schema.object(
            [
                ("seen", Schema.integer(minimum: 0)), ("stored", Schema.integer("New, stored and processed now.", minimum: 0)),
                ("alreadyStored", Schema.integer(minimum: 0)), ("rejected", Schema.integer("Failed verification; not stored.", minimum: 0)),
            ], required: ["seen", "stored", "alreadyStored", "rejected"])
    }

    static let backfill = RPCMethod<RPCCall>(
        "notifications.backfill", tag: "notifications", summary: "Recovers notifications Storegate missed from Apple's notification history.",
        description: """
            Apple's Get Notification History for [startDate, endDate) in each of the app's environments (or one), every page. Each notification \
            is verified and, when missing, stored and processed exactly as if it had arrived at the webhook; ones already stored are counted \
            and left alone, so running it twice changes nothing. Apple keeps 180 days.
            """, result: "backfill", errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError]
    ) { (p: BackfillParams, call) in
        let report = try await call.services.notifications.backfill(
            tenant: call.caller.tenant, bundleId: p.bundleId, environment: p.environment, startDate: p.startDate, endDate: p.endDate ?? Date(),
            actor: call.caller.actor)
        return BackfillResult(seen: report.seen, stored: report.stored, alreadyStored: report.alreadyStored, rejected: report.rejected)
    }
}
