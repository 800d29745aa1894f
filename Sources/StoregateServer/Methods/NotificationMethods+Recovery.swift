import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `notifications.requestTest`, `notifications.testStatus`, `notifications.backfill`.
extension NotificationMethods {
    @RPCParams struct TestParams {
        @Field(.bundleId) let bundleId: String
        @Field(.environment) let environment: AppStoreEnvironment?
    }

    @RPCObject struct TestToken {
        let testNotificationToken: String
    }

    static let requestTest = RPCMethod<RPCCall>(
        "notifications.requestTest", tag: "notifications", summary: "Asks Apple to send a TEST notification to the app's notification URL.",
        description: "Apple's Request a Test Notification. Check delivery with `notifications.testStatus`.", result: "testNotification",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError]
    ) { (p: TestParams, call) in
        TestToken(
            testNotificationToken: try await call.capabilities.notifications.requestTest(
                tenant: call.caller.tenant, bundleId: p.bundleId, environment: p.environment))
    }

    @RPCParams struct TestStatusParams {
        @Field(.bundleId) let bundleId: String
        @Field(.environment) let environment: AppStoreEnvironment?
        /// From notifications.requestTest.
        @Field(.maxLength(512)) let testNotificationToken: String
    }

    @RPCObject struct Attempt {
        let attemptDate: Date?
        /// Apple's sendAttemptResult, e.g. SUCCESS.
        let sendAttemptResult: String?
    }

    @RPCObject struct TestStatusResult {
        let sendAttempts: [Attempt]
        let receivedByStoregate: Bool
    }

    static let testStatus = RPCMethod<RPCCall>(
        "notifications.testStatus", tag: "notifications", summary: "Apple's delivery attempts for a test notification, and whether Storegate stored it.",
        result: "testNotificationStatus", errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError]
    ) { (p: TestStatusParams, call) in
        let (attempts, received) = try await call.capabilities.notifications.testStatus(
            tenant: call.caller.tenant, bundleId: p.bundleId, environment: p.environment, token: p.testNotificationToken)
        return TestStatusResult(
            sendAttempts: attempts.map { Attempt(attemptDate: $0.attemptDate?.date, sendAttemptResult: $0.sendAttemptResult?.rawValue) },
            receivedByStoregate: received)
    }

    @RPCParams struct BackfillParams {
        @Field(.bundleId) let bundleId: String
        @Field(.environment) let environment: AppStoreEnvironment?
        /// ISO 8601, within the last 180 days.
        let startDate: Date
        /// ISO 8601 (default: now).
        let endDate: Date?
    }

    @RPCObject struct BackfillResult {
        @Field(.minimum(0)) let seen: Int
        /// New, stored and processed now.
        @Field(.minimum(0)) let stored: Int
        @Field(.minimum(0)) let alreadyStored: Int
        /// Failed verification; not stored.
        @Field(.minimum(0)) let rejected: Int
    }

    static let backfill = RPCMethod<RPCCall>(
        "notifications.backfill", tag: "notifications", summary: "Recovers notifications Storegate missed from Apple's notification history.",
        description: """
            Apple's Get Notification History for [startDate, endDate) in each of the app's environments (or one), every page. Each notification \
            is verified and, when missing, stored and processed exactly as if it had arrived at the webhook; ones already stored are counted \
            and left alone, so running it twice changes nothing. Apple keeps 180 days.
            """, result: "backfill", errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError]
    ) { (p: BackfillParams, call) in
        let report = try await call.capabilities.notifications.backfill(
            tenant: call.caller.tenant, bundleId: p.bundleId, environment: p.environment, startDate: p.startDate, endDate: p.endDate ?? Date(),
            actor: call.caller.actor)
        return BackfillResult(seen: report.seen, stored: report.stored, alreadyStored: report.alreadyStored, rejected: report.rejected)
    }
}
