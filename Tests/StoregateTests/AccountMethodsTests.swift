import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import StoregatePostgres
import Testing

/// `accounts.*` over HTTP with data signed by the App Store simulator.
@Suite struct AccountMethodsTests {
    @Test func linkResolveAndTransfer() async throws {
        try await SimulatorHarness.with { sim in
            try await TestDatabase.with(trust: (roots: [sim.simulator.ca.root], allowUnsignedEnvironments: false)) { capabilities, _ in
                let a = try await Fixtures.tenant(capabilities, slug: "accounts-a", bundleId: SimulatorHarness.bundleId)
                let b = try await Fixtures.tenant(capabilities, slug: "accounts-b", bundleId: "com.example.other")
                try await TestServer.with(capabilities) { server in
                    func call(_ method: String, _ params: [String: Any], key: String? = nil) async throws -> [String: Any] {
                        try await server.call(method, params, apiKey: key ?? a.apiKey)
                    }
                    func result(_ reply: [String: Any]) throws -> [String: Any] { try #require(reply["result"] as? [String: Any], "\(reply)") }
                    func error(_ reply: [String: Any]) -> (code: Int?, data: [String: Any]) {
                        let error = reply["error"] as? [String: Any]
                        return (error?["code"] as? Int, error?["data"] as? [String: Any] ?? [:])
                    }

                    let lee = try result(try await call("accounts.ensure", ["customerId": "lee@example.com"]))
                    let token = try #require(lee["appAccountToken"] as? String)
                    #expect(try result(try await call("accounts.ensure", ["customerId": "lee@example.com"]))["appAccountToken"] as? String == token, "stable")
                    let max = try result(try await call("accounts.ensure", ["customerId": "max"]))
                    #expect(max["appAccountToken"] as? String != token)

                    let bought = await sim.store.purchase(AppStoreServerAPIClientTests.subscription("lee-device", token: UUID(uuidString: token)))
                    let transactionId = try #require(bought.transactionId)
                    let signed = try #require(try await sim.client.getTransactionInfo(transactionId: transactionId).signedTransactionInfo)
                    let linked = try result(
                        try await call(
                            "accounts.linkTransaction", ["bundleId": SimulatorHarness.bundleId, "customerId": "lee@example.com", "signedTransaction": signed]))
                    let kinds = (linked["links"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }.sorted()
                    #expect(kinds == ["appTransactionId", "originalTransactionId"])

                    let appTransaction = try #require(try await sim.client.getAppTransactionInfo(anyTransactionId: transactionId).signedAppTransactionInfo)
                    _ = try result(
                        try await call(
                            "accounts.linkAppTransaction",
                            ["bundleId": SimulatorHarness.bundleId, "customerId": "lee@example.com", "signedAppTransaction": appTransaction]))

                    let appTransactionId = try #require(bought.appTransactionId)
                    for params: [String: Any] in [
                        ["appAccountToken": token], ["bundleId": SimulatorHarness.bundleId, "appTransactionId": appTransactionId],
                        ["bundleId": SimulatorHarness.bundleId, "originalTransactionId": transactionId],
                        ["bundleId": SimulatorHarness.bundleId, "transactionId": transactionId],
                    ] {
                        #expect(try result(try await call("accounts.resolve", params))["customerId"] as? String == "lee@example.com", "\(params)")
                    }

                    let stolen = try await call(
                        "accounts.linkTransaction", ["bundleId": SimulatorHarness.bundleId, "customerId": "max", "signedTransaction": signed])
                    #expect(error(stolen).code == 1009)
                    #expect((error(stolen).data["reason"] as? String)?.contains("lee@example.com") == true, "the current owner is named")
                    _ = try result(
                        try await call(
                            "accounts.linkTransaction",
                            ["bundleId": SimulatorHarness.bundleId, "customerId": "max", "signedTransaction": signed, "transfer": true]))
                    #expect(
                        try result(try await call("accounts.resolve", ["bundleId": SimulatorHarness.bundleId, "originalTransactionId": transactionId]))[
                            "customerId"] as? String
                            == "max")
                    let audit = try await capabilities.persistence.inTenant(a.tenant.tenant, .read) { try await $0.auditLog() }
                    #expect(audit.contains { $0.action == "account.transfer" && $0.detail.contains("lee@example.com") })

                    var parts = signed.split(separator: ".").map(String.init)
                    // Tampered to name another environment: the signature is what fails, not the environment.
                    let payload = String(decoding: try #require(Base64URL.decode(parts[1])), as: UTF8.self)
                    #expect(payload.contains(#""environment":"Sandbox""#))
                    parts[1] = Base64URL.encode(Data(payload.replacingOccurrences(of: #""environment":"Sandbox""#, with: #""environment":"Production""#).utf8))
                    let forged = try await call(
                        "accounts.linkTransaction",
                        ["bundleId": SimulatorHarness.bundleId, "customerId": "max", "signedTransaction": parts.joined(separator: ".")])
                    #expect(error(forged).code == 1020)
                    #expect(error(forged).data["verification"] as? String == "badSignature")
                    #expect(error(forged).data["field"] as? String == "signedTransaction")

                    let other = try await call("accounts.resolve", ["appAccountToken": token], key: b.apiKey)
                    #expect(error(other).code == 1004, "tenant B does not see tenant A's customers")
                    let ambiguous = try await call("accounts.resolve", ["appAccountToken": token, "transactionId": transactionId])
                    #expect(error(ambiguous).code == -32602)
                }
            }
        }
    }
}

extension AccountMethodsTests {
    /// An offer-code purchase without appAccountToken → accounts.setAppAccountToken → the simulator's later
    /// transactions carry the token, and accounts.resolve finds the customer from each identifier.
    @Test func offerCodePurchaseGetsTheCustomersToken() async throws {
        try await SimulatorHarness.with { sim in
            try await TestDatabase.with(trust: (roots: [sim.simulator.ca.root], allowUnsignedEnvironments: false), appStoreURL: sim.baseURL) {
                capabilities, _ in
                let a = try await Fixtures.tenant(capabilities, slug: "offercode", bundleId: SimulatorHarness.bundleId)
                _ = try await capabilities.apps.importKey(
                    tenant: a.tenant.tenant, bundleId: SimulatorHarness.bundleId, keyId: "OFFERCODE1", issuerId: Fixtures.issuerId,
                    p8: sim.keyPEM, actor: Actor("test"))
                await sim.store.registerKey(bundleId: SimulatorHarness.bundleId, keyId: "OFFERCODE1", issuerId: Fixtures.issuerId, publicKey: sim.key.publicKey)

                var redemption = AppStoreServerAPIClientTests.subscription("nora-device")
                redemption.offerType = .offerCode
                redemption.offerIdentifier = "SPRING"
                let bought = await sim.store.purchase(redemption)
                #expect(bought.appAccountToken == nil)
                let original = try #require(bought.originalTransactionId)

                try await TestServer.with(capabilities) { server in
                    let reply = try await server.call(
                        "accounts.setAppAccountToken", ["bundleId": SimulatorHarness.bundleId, "customerId": "nora", "originalTransactionId": original],
                        apiKey: a.apiKey)
                    let customer = try #require(reply["result"] as? [String: Any], "\(reply)")
                    let token = try #require(customer["appAccountToken"] as? String)
                    let request = try #require(await sim.store.received.last)
                    #expect(request.path == "/inApps/v1/transactions/\(original)/appAccountToken")
                    #expect(request.bearerClaims["kid"] == "OFFERCODE1")

                    let renewal = try await sim.simulator.renew(originalTransactionId: original)
                    #expect(renewal.appAccountToken?.description == token, "later transactions carry the token")
                    let renewalId = try #require(renewal.transactionId)
                    let signed = try #require(try await sim.client.getTransactionInfo(transactionId: renewalId).signedTransactionInfo)
                    _ = try await server.call(
                        "accounts.linkTransaction", ["bundleId": SimulatorHarness.bundleId, "customerId": "nora", "signedTransaction": signed], apiKey: a.apiKey
                    )
                    for params: [String: Any] in [
                        ["appAccountToken": token], ["bundleId": SimulatorHarness.bundleId, "originalTransactionId": original],
                        ["bundleId": SimulatorHarness.bundleId, "transactionId": renewal.transactionId ?? ""],
                        ["bundleId": SimulatorHarness.bundleId, "appTransactionId": renewal.appTransactionId ?? ""],
                    ] {
                        let found = try await server.call("accounts.resolve", params, apiKey: a.apiKey)
                        #expect((found["result"] as? [String: Any])?["customerId"] as? String == "nora", "\(params): \(found)")
                    }

                    var family = AppStoreServerAPIClientTests.subscription("olga-device")
                    family.familyShared = true
                    let shared = try #require(await sim.store.purchase(family).originalTransactionId)
                    let refused = try await server.call(
                        "accounts.setAppAccountToken", ["bundleId": SimulatorHarness.bundleId, "customerId": "olga", "originalTransactionId": shared],
                        apiKey: a.apiKey)
                    let error = refused["error"] as? [String: Any]
                    #expect(error?["code"] as? Int == 1030)
                    #expect((error?["data"] as? [String: Any])?["appleErrorCode"] as? Int == 4_000_185)
                    #expect(((error?["data"] as? [String: Any])?["reason"] as? String)?.contains("family-shared") == true)
                }
            }
        }
    }
}
