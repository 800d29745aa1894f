import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PostgresNIO
import Storegate
import StoregatePostgres
import Testing

/// Notifications from the App Store simulator to Storegate's webhook, over HTTP, into PostgreSQL.
@Suite struct NotificationIngestTests {
    @Test func notificationsAreStoredOnceAndRetriedAfterFailures() async throws {
        try await SimulatorHarness.with { sim in
            try await TestDatabase.with(trust: (roots: [sim.simulator.ca.root], allowUnsignedEnvironments: false)) { capabilities, _ in
                let tenant = try await Fixtures.tenant(capabilities, slug: "ingest", bundleId: SimulatorHarness.bundleId)
                let app = try await capabilities.apps.get(tenant: tenant.tenant.tenant, bundleId: SimulatorHarness.bundleId)
                let token = try #require(app.notificationURLs.first { $0.environment == .sandbox }?.token)
                try await TestServer.with(capabilities) { server in
                    let url = server.baseURL + "/apple/notifications/" + token
                    await sim.store.setNotificationURL(bundleId: SimulatorHarness.bundleId, url: url)
                    func stored() async throws -> [StoredNotification] {
                        try await capabilities.notifications.list(tenant: tenant.tenant.tenant, appId: nil, limit: 100)
                    }
                    func waitFor(_ count: Int) async throws {
                        try await eventually("\(count) stored notifications") { try await stored().count >= count }
                    }

                    _ = try await sim.simulator.purchase(AppStoreServerAPIClientTests.subscription("kim"))
                    try await waitFor(1)
                    let first = try await stored()
                    #expect(first.count == 1)
                    #expect(first.first?.notificationType.rawValue == "SUBSCRIBED")
                    #expect(first.first?.subtype?.rawValue == "INITIAL_BUY")
                    #expect(first.first?.environment == .sandbox)
                    let signed = try #require(first.first?.signedPayload)

                    func post(_ body: String, to target: String = url) async throws -> Int {
                        var request = HTTPClientRequest(url: target)
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.body = .bytes(ByteBuffer(string: body))
                        return Int(try await HTTPClient.shared.execute(request, timeout: .seconds(30)).status.code)
                    }
                    #expect(try await post(#"{"signedPayload":"\#(signed)"}"#) == 200, "a redelivery is acknowledged")
                    #expect(try await stored().count == 1, "and not stored twice")

                    var parts = signed.split(separator: ".").map(String.init)
                    var payload = try #require(Base64URL.decode(parts[1]))
                    payload[payload.count / 2] ^= 0x01
                    parts[1] = Base64URL.encode(payload)
                    #expect(try await post(#"{"signedPayload":"\#(parts.joined(separator: "."))"}"#) == 400)
                    #expect(try await post(#"{"nope":1}"#) == 400)
                    #expect(
                        try await post(#"{"signedPayload":"\#(signed)"}"#, to: server.baseURL + "/apple/notifications/" + String(repeating: "A", count: 43))
                            == 404)

                    // Signed by a chain Storegate does not trust: refused.
                    let stranger = try AppStoreSimulator()
                    await stranger.store.register(bundleId: SimulatorHarness.bundleId, appAppleId: 1_234_567)
                    let foreign = try await stranger.notify(.test, bundleId: SimulatorHarness.bundleId)
                    let foreignSigned = try stranger.ca.sign(foreign)
                    #expect(try await post(#"{"signedPayload":"\#(foreignSigned)"}"#) == 400)

                    // The database fails: Apple is told 500 and sends the notification again later.
                    try await capabilities.postgres.client.withConnection { conn in
                        try await conn.run("ALTER TABLE storegate.notification_inbox RENAME TO notification_inbox_away", logger: capabilities.postgres.logger)
                    }
                    let original = try #require(await sim.store.transactions(ofCustomer: "kim").first?.originalTransactionId)
                    try await sim.simulator.renew(originalTransactionId: original)
                    try await eventually("a delivery attempt while storage is away") {
                        await (sim.store.sentNotifications(bundleId: SimulatorHarness.bundleId).last?.attempts.count ?? 0) >= 1
                    }
                    try await capabilities.postgres.client.withConnection { conn in
                        try await conn.run("ALTER TABLE storegate.notification_inbox_away RENAME TO notification_inbox", logger: capabilities.postgres.logger)
                    }
                    try await waitFor(2)
                    #expect(try await stored().map(\.notificationType.rawValue).sorted() == ["DID_RENEW", "SUBSCRIBED"])
                    // The simulator records the attempt once Storegate has answered.
                    try await eventually("the successful redelivery recorded") {
                        await sim.store.sentNotifications(bundleId: SimulatorHarness.bundleId).last?.attempts.last?.sendAttemptResult == .success
                    }
                    let attempts = await sim.store.sentNotifications(bundleId: SimulatorHarness.bundleId).last?.attempts.map(\.sendAttemptResult)
                    #expect(attempts?.first == .unsuccessfulHttpResponseCode)
                    #expect(attempts?.last == .success)

                    let listed = try await server.call("notifications.list", ["bundleId": SimulatorHarness.bundleId], apiKey: tenant.apiKey)
                    let items = (listed["result"] as? [String: Any])?["notifications"] as? [[String: Any]] ?? []
                    #expect(items.compactMap { $0["notificationType"] as? String }.sorted() == ["DID_RENEW", "SUBSCRIBED"])
                    #expect(items.allSatisfy { $0["environment"] as? String == "Sandbox" && $0["bundleId"] as? String == SimulatorHarness.bundleId })
                }
            }
        }
    }
}
