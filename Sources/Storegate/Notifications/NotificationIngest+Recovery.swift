import AppStoreServer
import Foundation

/// Test notifications and recovery of missed notifications from Apple's notification history.
extension NotificationIngest {
    public struct BackfillReport: Sendable, Equatable {
        /// Notifications Apple listed for the period.
        public var seen = 0
        /// New ones, stored and processed now.
        public var stored = 0
        /// Ones Storegate had already.
        public var alreadyStored = 0
        /// Ones that failed verification (not stored).
        public var rejected = 0

        public init() {}

        mutating func add(_ other: BackfillReport) {
            seen += other.seen
            stored += other.stored
            alreadyStored += other.alreadyStored
            rejected += other.rejected
        }
    }

    /// Pulls Apple's notification history for `[startDate, endDate)` in each of the app's environments (or
    /// one) and ingests what is missing, exactly as if it had arrived at the webhook. Idempotent.
    public func backfill(
        tenant: Tenant, bundleId: String, environment: AppStoreEnvironment?, startDate: Date, endDate: Date, actor: Actor
    ) async throws -> BackfillReport {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        guard startDate < endDate else { throw StoregateError.invalid(field: "endDate", reason: "must be after startDate") }
        guard startDate > Date() - 180 * 86_400 else {
            throw StoregateError.invalid(field: "startDate", reason: "must be within the last 180 days (Apple keeps no older history)")
        }
        let environments =
            try environment.map { given throws(StoregateError) in
                guard app.environments.contains(given) else {
                    throw StoregateError.invalid(field: "environment", reason: "is not one of the app's environments")
                }
                return [given]
            } ?? app.environments
        var report = BackfillReport()
        for environment in environments {
            let request = NotificationHistoryRequest(startDate: Timestamp(startDate), endDate: Timestamp(endDate))
            report.add(try await ingestHistory(tenant: tenant, app: app, environment: environment, request: request))
        }
        try await persistence.inTenant(tenant, .read) { unit in
            try await unit.audit(actor, "notifications.backfill", ["bundleId": app.bundleId, "seen": String(report.seen), "stored": String(report.stored)])
        }
        return report
    }

    /// Reads every page of Apple's notification history that `request` asks for and stores what Storegate
    /// does not have, exactly as if it had arrived at the webhook.
    func ingestHistory(tenant: Tenant, app: App, environment: AppStoreEnvironment, request: NotificationHistoryRequest) async throws -> BackfillReport {
        var report = BackfillReport()
        let client = try await gateway.client(tenant: tenant, app: app, environment: environment)
        do {
            for try await page in client.notificationHistory(request: request) {
                for item in page.notificationHistory ?? [] {
                    guard let signed = item.signedPayload else { continue }
                    report.seen += 1
                    guard case .success(let stored) = await verify(signed, app: app, environment: environment, source: .backfill) else {
                        report.rejected += 1
                        continue
                    }
                    if try await store(stored, tenant: tenant) { report.stored += 1 } else { report.alreadyStored += 1 }
                }
            }
        } catch let error as AppStoreServerAPIError {
            throw AppStoreGateway.storegateError(error, field: "startDate")
        }
        return report
    }

    /// Asks Apple to send a `TEST` notification to the app's URL; returns Apple's token for `testStatus`.
    public func requestTest(tenant: Tenant, bundleId: String, environment: AppStoreEnvironment?) async throws -> String {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        let client = try await gateway.client(tenant: tenant, app: app, environment: try app.environment(environment))
        do {
            guard let token = try await client.requestTestNotification().testNotificationToken else {
                throw StoregateError.appStore(field: "bundleId", code: nil, reason: "Apple returned no test notification token", retryable: true)
            }
            return token
        } catch let error as AppStoreServerAPIError {
            throw AppStoreGateway.storegateError(error, field: "bundleId")
        }
    }

    /// Apple's record of a test notification's delivery, and whether Storegate stored it.
    public func testStatus(
        tenant: Tenant, bundleId: String, environment: AppStoreEnvironment?, token: String
    ) async throws
        -> (attempts: [SendAttemptItem], received: Bool)
    {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        guard (1...512).contains(token.utf8.count), token.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "/" && $0 != "?" && $0 != "#" }) else {
            throw StoregateError.invalid(field: "testNotificationToken", reason: "is not a token from notifications.requestTest")
        }
        let client = try await gateway.client(tenant: tenant, app: app, environment: try app.environment(environment))
        let response: CheckTestNotificationResponse
        do {
            response = try await client.getTestNotificationStatus(testNotificationToken: token)
        } catch {
            throw AppStoreGateway.storegateError(error, field: "testNotificationToken")
        }
        var received = false
        if let signed = response.signedPayload, let uuid = Self.unverifiedNotificationUUID(signed) {
            received = try await persistence.inTenant(tenant, .read) { try await $0.notifications.existing([uuid]) }.contains(uuid)
        }
        return (response.sendAttempts ?? [], received)
    }

    /// The UUID a signed notification names (used only to look it up locally, never trusted).
    static func unverifiedNotificationUUID(_ jws: String) -> UUID? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Base64URL.decode(parts[1]),
            let payload = try? JSONDecoder().decode(ResponseBodyV2DecodedPayload.self, from: data)
        else { return nil }
        return payload.notificationUUID.flatMap(UUID.init(uuidString:))
    }
}
