import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import Testing

/// Finish Transaction (App Store Server API 1.20): the request Apple's Python library makes, byte for byte,
/// answered by the simulator; `transactions.finish` over RPC, audited.
@Suite struct FinishTransactionTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("AppleLibrary/finish_transaction_request.py").path

    @Test func theClientSendsTheRequestApplesLibraryBuilds() async throws {
        try await SimulatorHarness.with { sim in
            let id = try #require(await sim.store.purchase(AppStoreServerAPIClientTests.consumable("finisher")).transactionId)
            try await sim.client.finishTransaction(transactionId: id)
            let sent = try #require(await sim.store.received.last)
            let apple = try await Subprocess.run("/usr/bin/env", ["python3", Self.script, id], environment: ProcessInfo.processInfo.environment)
            #expect(apple.status == 0, "Apple's library: \(apple.stderr)")
            let expected = try #require(try JSONSerialization.jsonObject(with: Data(apple.stdout.utf8)) as? [String: Any])
            #expect(sent.method == expected["method"] as? String && sent.method == "POST")
            #expect(sent.path == expected["path"] as? String && sent.path == "/inApps/v1/transactions/\(id)/finish")
            #expect(sent.query.isEmpty && (expected["query"] as? [Any])?.isEmpty == true)
            #expect(sent.contentType == nil && expected["contentType"] is NSNull, "no body, so no content type")
            #expect(sent.body.isEmpty && expected["body"] as? String == "")
            #expect(sent.bearerClaims["aud"] == "appstoreconnect-v1" && sent.bearerClaims["bid"] == SimulatorHarness.bundleId, "\(sent.bearerClaims)")
            #expect(await sim.store.isFinished(transactionId: id))
            do {
                try await sim.client.finishTransaction(transactionId: "2999999999999999")
                Issue.record("an unknown transaction is refused")
            } catch { #expect((error as? AppStoreServerAPIError)?.apiErrorCode == .transactionIdNotFound) }
        }
    }

    @Test func transactionsFinishCallsAppleAndIsAudited() async throws {
        try await Storefront.with(slug: "finish") { s in
            let id = try #require(try await s.simulator.purchase(AppStoreServerAPIClientTests.consumable("fin-device")).transactionId)
            let finished = try await s.result("transactions.finish", ["bundleId": Storefront.bundleId, "transactionId": id])
            #expect(finished["transactionId"] as? String == id && finished["environment"] as? String == "Sandbox", "\(finished)")
            #expect(await s.store.isFinished(transactionId: id))
            let audit = try await s.capabilities.persistence.inTenant(s.tenant.tenant, .read) { try await $0.auditLog() }
            #expect(audit.contains { $0.action == "apple.finishTransaction" && $0.detail.contains(id) }, "\(audit)")

            let unknown = try await s.call("transactions.finish", ["bundleId": Storefront.bundleId, "transactionId": "2999999999999999"])
            let error = try #require(unknown["error"] as? [String: Any], "\(unknown)")
            #expect((error["data"] as? [String: Any])?["field"] as? String == "transactionId", "\(error)")
        }
    }
}
