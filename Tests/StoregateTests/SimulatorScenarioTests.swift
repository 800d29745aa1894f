import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// The simulator's scenarios, notifications with Apple's retry schedule, and its scenario HTTP API.
@Suite struct SimulatorScenarioTests {
    typealias Purchase = SimulatorStore.Purchase

    /// Delivery retries on Apple's schedule (compressed) until the endpoint answers 200; every attempt is in the history.
    @Test func notificationsAreRetriedOnApplesSchedule() async throws {
        let receiver = NotificationReceiver(failFirst: 2)
        try await receiver.with { url in
            try await SimulatorHarness.with { sim in
                await sim.store.setNotificationURL(bundleId: SimulatorHarness.bundleId, url: url)
                let bought = try await sim.simulator.purchase(AppStoreServerAPIClientTests.consumable("gina"))
                try await receiver.wait(for: 3)
                #expect(receiver.received.count == 3)
                #expect(Set(receiver.received).count == 1, "the same signed payload each time")
                let verified = try #require(await sim.verifier().verify(receiver.received[0]).payload)
                let notification = try verified.decode(ResponseBodyV2DecodedPayload.self)
                #expect(notification.notificationType == .oneTimeCharge)
                let signedTransaction = try #require(notification.data?.signedTransactionInfo)
                #expect(
                    try #require(await sim.verifier().verify(signedTransaction).payload).decode(JWSTransactionDecodedPayload.self).transactionId
                        == bought.transactionId)

                try await eventually("the third attempt recorded") {
                    await sim.store.sentNotifications(bundleId: SimulatorHarness.bundleId).first?.attempts.count == 3
                }
                let attempts = await sim.store.sentNotifications(bundleId: SimulatorHarness.bundleId).first?.attempts.map(\.sendAttemptResult)
                #expect(attempts == [.unsuccessfulHttpResponseCode, .unsuccessfulHttpResponseCode, .success])
                let history = try await sim.client.getNotificationHistory(
                    paginationToken: nil,
                    request: NotificationHistoryRequest(
                        startDate: Timestamp(Date().addingTimeInterval(-60)), endDate: Timestamp(Date().addingTimeInterval(60)), onlyFailures: true))
                #expect(history.notificationHistory?.first?.sendAttempts?.count == 3)
            }
        }
    }

    /// A subscription through renewal, billing retry, grace period and expiry, as statuses and notifications.
    @Test func subscriptionLifecycle() async throws {
        try await SimulatorHarness.with { sim in
            let bought = try await sim.simulator.purchase(AppStoreServerAPIClientTests.subscription("hank"))
            let original = try #require(bought.originalTransactionId)
            func status() async throws -> Status? {
                try await sim.client.getAllSubscriptionStatuses(anyTransactionId: original).data?.first?.lastTransactions?.first?.status
            }
            #expect(try await status() == .active)
            let renewed = try await sim.simulator.renew(originalTransactionId: original)
            #expect(renewed.originalTransactionId == original)
            #expect(renewed.transactionId != original)
            #expect(renewed.transactionReason == .renewal)
            try await sim.simulator.failRenewal(originalTransactionId: original, gracePeriod: 3600)
            #expect(try await status() == .billingGracePeriod)
            try await sim.simulator.failRenewal(originalTransactionId: original)
            #expect(try await status() == .billingRetry)
            try await sim.simulator.renew(originalTransactionId: original)
            #expect(try await status() == .active)
            try await sim.simulator.setAutoRenew(originalTransactionId: original, enabled: false)
            try await sim.simulator.expire(originalTransactionId: original)
            #expect(try await status() == .expired)
            let kinds = await sim.store.sentNotifications(bundleId: SimulatorHarness.bundleId).map {
                "\($0.payload.notificationType?.rawValue ?? "")/\($0.payload.subtype?.rawValue ?? "")"
            }
            #expect(
                kinds == [
                    "SUBSCRIBED/INITIAL_BUY", "DID_RENEW/", "DID_FAIL_TO_RENEW/GRACE_PERIOD", "DID_FAIL_TO_RENEW/", "DID_RENEW/BILLING_RECOVERY",
                    "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY",
                ])
        }
    }

    /// A refund request, a prorated refund, its reversal and a declined request, as notifications.
    @Test func refundScenarios() async throws {
        try await SimulatorHarness.with { sim in
            var coins = AppStoreServerAPIClientTests.consumable("ivy")
            coins.quantity = 100
            let id = try #require(try await sim.simulator.purchase(coins).transactionId)
            try await sim.simulator.requestRefund(transactionId: id, reason: .unsatisfiedWithPurchase)
            let refunded = try await sim.simulator.refund(transactionId: id, percentage: 75_000)
            #expect(refunded.revocationType == .refundProrated)
            try await sim.simulator.reverseRefund(transactionId: id)
            try await sim.simulator.requestRefund(transactionId: id)
            try await sim.simulator.declineRefund(transactionId: id)
            let sent = await sim.store.sentNotifications(bundleId: SimulatorHarness.bundleId)
            #expect(
                sent.map { $0.payload.notificationType } == [
                    .oneTimeCharge, .consumptionRequest, .refund, .refundReversed, .consumptionRequest, .refundDeclined,
                ])
            #expect(sent[1].payload.data?.consumptionRequestReason == .unsatisfiedWithPurchase)
            let refundJWS = try #require(sent[2].payload.data?.signedTransactionInfo)
            let transaction = try #require(await sim.verifier().verify(refundJWS).payload).decode(JWSTransactionDecodedPayload.self)
            #expect(transaction.revocationPercentage == 75_000)
            #expect(transaction.quantity == 100)
            let reversedJWS = try #require(sent[3].payload.data?.signedTransactionInfo)
            #expect(try #require(await sim.verifier().verify(reversedJWS).payload).decode(JWSTransactionDecodedPayload.self).revocationDate == nil)
        }
    }

    /// The scenario HTTP API: register an app and key, buy, inject a fault, export the root.
    @Test func scenarioHTTPAPI() async throws {
        try await SimulatorHarness.with { sim in
            func post(_ path: String, _ json: String) async throws -> (Int, Data) {
                var request = HTTPClientRequest(url: sim.baseURL + path)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: json))
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
                return (Int(response.status.code), Data(try await response.body.collect(upTo: 1 << 20).readableBytesView))
            }
            let key = P256.Signing.PrivateKey()
            #expect(try await post("/simulator/apps", #"{"bundleId":"com.example.http","appAppleId":77}"#).0 == 201)
            let pem = key.publicKey.pemRepresentation.replacingOccurrences(of: "\n", with: "\\n")
            #expect(
                try await post("/simulator/apps/com.example.http/keys", #"{"keyId":"HTTPKEY001","issuerId":"\#(Fixtures.issuerId)","publicKey":"\#(pem)"}"#).0
                    == 201)
            let (status, body) = try await post(
                "/simulator/purchases", #"{"customer":"jo","bundleId":"com.example.http","productId":"com.example.lifetime","type":"Non-Consumable"}"#)
            #expect(status == 201)
            let bought = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: body)
            #expect(bought.type == .nonConsumable)

            let client = AppStoreServerAPIClient(
                http: .shared,
                token: AppStoreServerAPIToken(key: SigningKey(keyId: "HTTPKEY001", issuerId: Fixtures.issuerId, bundleId: "com.example.http", privateKey: key)),
                environment: .custom(sim.baseURL), retry: .none)
            #expect(try await client.getTransactionInfo(transactionId: try #require(bought.transactionId)).signedTransactionInfo != nil)
            #expect(try await post("/simulator/faults", #"{"kind":"serverError","times":1}"#).0 == 201)
            do {
                _ = try await client.getTransactionInfo(transactionId: try #require(bought.transactionId))
                Issue.record("the injected fault did not fire")
            } catch {
                #expect((error as? AppStoreServerAPIError)?.apiErrorCode == .generalInternalRetryable)
            }
            let root = try await HTTPClient.shared.execute(HTTPClientRequest(url: sim.baseURL + "/simulator/root.der"), timeout: .seconds(30))
            #expect(Data(try await root.body.collect(upTo: 1 << 16).readableBytesView) == sim.simulator.ca.rootDER)
        }
    }

    /// The scenario API says what is wrong, as JSON naming the field, and keeps nothing of a refused purchase.
    @Test func scenarioErrorsNameWhatIsWrong() async throws {
        try await SimulatorHarness.with { sim in
            func post(_ path: String, _ json: String) async throws -> (status: Int, answer: [String: String]) {
                var request = HTTPClientRequest(url: sim.baseURL + path)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: json))
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
                let body = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
                return (
                    Int(response.status.code), (try? JSONDecoder().decode([String: String].self, from: body)) ?? ["body": String(decoding: body, as: UTF8.self)]
                )
            }
            let unknownSubscription = try await post("/simulator/subscriptions/999/renew", "{}")
            #expect(unknownSubscription.status == 404 && unknownSubscription.answer["error"]?.contains("no transaction 999") == true, "\(unknownSubscription)")
            let unknownApp = try await post(
                "/simulator/purchases", #"{"customer":"kit","bundleId":"com.example.nobody","productId":"p","type":"Consumable"}"#)
            #expect(unknownApp.status == 404 && unknownApp.answer["field"] == "bundleId", "\(unknownApp)")
            #expect(await sim.store.transactions(ofCustomer: "kit").isEmpty, "nothing of the refused purchase is kept")
            let notAType = try await post(
                "/simulator/purchases", #"{"customer":"kit","bundleId":"\#(SimulatorHarness.bundleId)","productId":"p","type":"Subscription"}"#)
            #expect(notAType.status == 400 && notAType.answer["field"] == "type", "\(notAType)")
            #expect(notAType.answer["error"]?.contains("Auto-Renewable Subscription") == true)
            let missing = try await post("/simulator/purchases", #"{"customer":"kit"}"#)
            #expect(missing.status == 400 && missing.answer["error"]?.contains("bundleId") == true, "\(missing)")
            #expect(try await post("/simulator/apps", #"{"bundleId":"com.example.sandboxonly"}"#).status == 201, "a Sandbox app needs no Apple ID")
            let production = try await post("/simulator/apps", #"{"bundleId":"com.example.prod","environment":"Production"}"#)
            #expect(production.status == 400 && production.answer["field"] == "appAppleId", "\(production)")
            let action = try await post("/simulator/subscriptions/1/dance", "{}")
            #expect(action.status == 404 && action.answer["error"]?.contains("renew, fail-renewal") == true, "\(action)")
        }
    }

    /// `storegate simulator --state-dir`, stopped and started again, knows its apps, keys and purchases, signs
    /// with the same root, and issues IDs past those it issued.
    @Test func aSimulatorWithAStateDirectoryKnowsWhatItKnewAfterARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simulator-state-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try FreePort.find()
        let base = "http://127.0.0.1:\(port)"
        func start() throws -> Subprocess {
            try Subprocess(
                CLITests.binary, ["simulator", "--port", "\(port)", "--state-dir", directory.path],
                environment: ["PATH": "/usr/bin:/bin", "STOREGATE_LOG_LEVEL": "warning"])
        }
        func send(_ path: String, _ json: String? = nil) async throws -> (status: Int, body: Data) {
            var request = HTTPClientRequest(url: base + path)
            if let json {
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: json))
            }
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            return (Int(response.status.code), Data(try await response.body.collect(upTo: 1 << 20).readableBytesView))
        }
        func stop(_ process: Subprocess) async {
            process.signal(SIGTERM)
            #expect(await process.waitForExit(upTo: .seconds(60)) != nil, "the simulator stopped")
        }
        let first = try start()
        try await eventually("the simulator listens") { (try? await send("/simulator/root.der"))?.status == 200 }
        let root = try await send("/simulator/root.der").body
        let key = P256.Signing.PrivateKey()
        let pem = key.publicKey.pemRepresentation.replacingOccurrences(of: "\n", with: "\\n")
        #expect(try await send("/simulator/apps", #"{"bundleId":"com.example.kept"}"#).status == 201)
        #expect(
            try await send("/simulator/apps/com.example.kept/keys", #"{"keyId":"KEPTKEY001","issuerId":"\#(Fixtures.issuerId)","publicKey":"\#(pem)"}"#).status
                == 201)
        let bought = try await send(
            "/simulator/purchases", #"{"customer":"lee","bundleId":"com.example.kept","productId":"com.example.monthly","type":"Auto-Renewable Subscription"}"#)
        let firstTransaction = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: bought.body)
        await stop(first)

        let second = try start()
        try await eventually("the simulator listens again") { (try? await send("/simulator/root.der"))?.status == 200 }
        #expect(try await send("/simulator/root.der").body == root, "the same root: a Storegate that trusts it goes on trusting it")
        let client = AppStoreServerAPIClient(
            http: .shared,
            token: AppStoreServerAPIToken(key: SigningKey(keyId: "KEPTKEY001", issuerId: Fixtures.issuerId, bundleId: "com.example.kept", privateKey: key)),
            environment: .custom(base), retry: .none)
        let original = try #require(firstTransaction.originalTransactionId)
        #expect(try await client.getTransactionInfo(transactionId: original).signedTransactionInfo != nil, "the app, its key and the purchase are known")
        let renewed = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: try await send("/simulator/subscriptions/\(original)/renew", "{}").body)
        #expect(try #require(Int64(renewed.transactionId ?? "")) > (try #require(Int64(original))), "IDs go on past those issued")
        await stop(second)
    }
}
