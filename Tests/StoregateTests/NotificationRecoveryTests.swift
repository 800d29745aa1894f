import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Storegate
import StoregatePostgres
import Testing

/// Notifications Apple could not deliver are recovered from its notification history; nothing is applied twice.
@Suite struct NotificationRecoveryTests {
    @Test func backfillRecoversWhatWasSentWhileStoregateWasDown() async throws {
        try await Storefront.with(slug: "backfill") { s in
            let customer = try await s.result("accounts.ensure", ["customerId": "fay"])
            let token = try #require(UUID(uuidString: customer["appAccountToken"] as? String ?? ""))
            // Storegate is unreachable: Apple's attempts fail.
            await s.store.setNotificationURL(bundleId: Storefront.bundleId, url: "http://127.0.0.1:9/apple/notifications/down")
            let bought = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("fay-device", token: token))
            let original = try #require(bought.originalTransactionId)
            let renewal = try await s.simulator.renew(originalTransactionId: original)
            try await s.eventually("Apple's failed attempts") {
                await s.store.sentNotifications(bundleId: Storefront.bundleId).allSatisfy { !$0.attempts.isEmpty }
            }
            #expect(try await s.processedCount() == 0)
            #expect((try await s.result("subscriptions.status", ["customerId": "fay"])["subscriptions"] as? [Any])?.isEmpty == true)

            let bad = try await s.call("notifications.backfill", ["bundleId": Storefront.bundleId, "startDate": "yesterday"])
            #expect(((bad["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "startDate")
            let start = (Date() - 3600).formatted(.iso8601)
            let recovered = try await s.result("notifications.backfill", ["bundleId": Storefront.bundleId, "startDate": start])
            #expect(recovered["seen"] as? Int == 2)
            #expect(recovered["stored"] as? Int == 2)
            try await s.eventually("both applied") { try await s.processedCount() == 2 }
            let status = (try await s.result("subscriptions.status", ["customerId": "fay"])["subscriptions"] as? [[String: Any]])?.first
            #expect(status?["status"] as? String == "active")
            #expect(status?["latestTransactionId"] as? String == renewal.transactionId)
            let listed = try await s.result("notifications.list", ["bundleId": Storefront.bundleId])
            #expect((listed["notifications"] as? [[String: Any]])?.map { $0["notificationType"] as? String } == ["DID_RENEW", "SUBSCRIBED"])

            let again = try await s.result("notifications.backfill", ["bundleId": Storefront.bundleId, "startDate": start])
            #expect(again["stored"] as? Int == 0)
            #expect(again["alreadyStored"] as? Int == 2)

            // Storegate is back; Apple redelivers what it sent: acknowledged, not processed twice.
            for sent in await s.store.sentNotifications(bundleId: Storefront.bundleId) {
                let signed = try s.simulator.ca.sign(sent.payload)
                var request = HTTPClientRequest(url: s.webhookURL)
                request.method = .POST
                request.body = .bytes(ByteBuffer(string: #"{"signedPayload":"\#(signed)"}"#))
                #expect(try await HTTPClient.shared.execute(request, timeout: .seconds(30)).status == .ok)
            }
            #expect(try await s.processedCount() == 2)
            let notifications = try await s.capabilities.notifications.list(tenant: s.tenant.tenant, appId: nil, limit: 10)
            #expect(notifications.count == 2)
            #expect(notifications.allSatisfy { $0.source == .backfill })
        }
    }

    @Test func testNotificationRoundTrip() async throws {
        try await Storefront.with(slug: "testnote") { s in
            let requested = try await s.result("notifications.requestTest", ["bundleId": Storefront.bundleId, "environment": "Sandbox"])
            let token = try #require(requested["testNotificationToken"] as? String)
            try await s.eventually("the test notification") {
                let status = try await s.result("notifications.testStatus", ["bundleId": Storefront.bundleId, "testNotificationToken": token])
                return status["receivedByStoregate"] as? Bool == true
                    && (status["sendAttempts"] as? [[String: Any]])?.last?["sendAttemptResult"] as? String == "SUCCESS"
            }
            let status = try await s.result("notifications.testStatus", ["bundleId": Storefront.bundleId, "testNotificationToken": token])
            #expect((status["sendAttempts"] as? [[String: Any]])?.last?["sendAttemptResult"] as? String == "SUCCESS")
            let wrongEnvironment = try await s.call("notifications.requestTest", ["bundleId": Storefront.bundleId, "environment": "Production"])
            #expect(((wrongEnvironment["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "environment")
        }
    }
}
