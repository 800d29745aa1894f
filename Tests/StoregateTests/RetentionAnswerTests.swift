import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import PostgresNIO
import Storegate
import StoregatePostgres
import Testing

/// Apple's Get Retention Message requests at `/apple/retention/<token>`, answered by the app's rules: sent by
/// the simulator (signed with its chain) or made here, over real HTTP.
@Suite struct RetentionAnswerTests {
    static let (calm, refundedMessage, stayMessage) = (
        "0b1f6a0e-3c52-4c39-8a55-0d6b8f3a9c11", "5d0c1e7a-94a1-4f0e-b1d2-7e8c9a0b1c22", "a7e2c9d4-1b3f-4e5a-9c6d-2f8e0a1b3c33"
    )

    static var rules: [[String: Any]] {
        [
            ["name": "in-billing-retry", "when": ["billingRetry": true], "answer": ["message": ["messageIdentifier": calm]]],
            ["name": "refunded-before", "when": ["refunded": true], "answer": ["message": ["messageIdentifier": refundedMessage]]],
            [
                "name": "stay-english", "when": ["productIds": ["com.example.monthly"], "locales": ["en"], "minTenureDays": 0, "offerRedeemed": false],
                "answer": ["promotionalOffer": ["offerIdentifier": "STAY50", "messageIdentifier": stayMessage]],
            ],
            [
                "name": "switch-french", "when": ["locales": ["fr-FR"]],
                "answer": ["alternateProduct": ["productId": "com.example.yearly", "billingPlanType": "MONTHLY"]],
            ],
        ]
    }

    /// Asks the simulator to send Apple's request for the subscription; returns Apple's view of the exchange.
    static func ask(_ s: Storefront, _ originalTransactionId: String, locale: String = "en-US") async throws -> [String: Any] {
        let body = ["bundleId": Storefront.bundleId, "originalTransactionId": originalTransactionId, "userLocale": locale]
        let reply = try await s.server.client.execute(
            {
                var request = HTTPClientRequest(url: s.sim.baseURL + "/simulator/retention/request")
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: body)))
                return request
            }(), timeout: .seconds(30))
        let data = try await reply.body.collect(upTo: 1 << 20)
        let exchange = try #require(
            try JSONSerialization.jsonObject(with: Data(data.readableBytesView)) as? [String: Any], "\(reply.status): \(String(buffer: data))")
        #expect(exchange["result"] as? String == "SUCCESS", "\(exchange)")
        return exchange["answer"] as? [String: Any] ?? [:]
    }

    /// The `retention.answered` events' data, once there are `count`: an answer is recorded after it is sent.
    static func answered(_ s: Storefront, count: Int) async throws -> [[String: Any]] {
        var events: [[String: Any]] = []
        do {
            try await s.eventually("\(count) retention answers recorded") {
                let result = try await s.result("events.list", ["types": ["retention.answered"], "limit": 100])
                events = (result["events"] as? [[String: Any]] ?? []).compactMap { $0["data"] as? [String: Any] }
                return events.count >= count
            }
        } catch {
            Issue.record("recorded so far: \(events)")
            throw error
        }
        return events
    }

    @Test func theFirstRuleThatHoldsAnswersWithAFreshOffer() async throws {
        try await Storefront.with(slug: "retention-answers") { s in
            let set = try await s.result("retention.rules.set", ["bundleId": Storefront.bundleId, "rules": Self.rules])
            #expect((set["rules"] as? [[String: Any]])?.map { $0["name"] as? String } == Self.rules.map { $0["name"] as? String })
            let token = try #require(UUID(uuidString: try await s.result("accounts.ensure", ["customerId": "ada"])["appAccountToken"] as? String ?? ""))
            let ada = try #require(try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("ada-device", token: token)).originalTransactionId)
            let bea = try #require(try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("bea-device")).originalTransactionId)
            try await s.processed(2)
            let url = try #require(try await s.result("retention.realtimeURL.configure", ["bundleId": Storefront.bundleId])["realtimeURL"] as? String)
            #expect(url.hasPrefix(s.server.baseURL.replacingOccurrences(of: "localhost", with: "127.0.0.1")), "\(url)")

            // English: the promotional offer, a V2 JWS signed now with the app's key, bound to the subscription.
            let offer = try #require(try await Self.ask(s, ada)["promotionalOffer"] as? [String: Any])
            #expect(offer["messageIdentifier"] as? String == Self.stayMessage)
            let jws = try #require(offer["promotionalOfferSignatureV2"] as? String)
            let parts = jws.split(separator: ".").map(String.init)
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
            #expect(s.sim.key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)), "verifies with the app's key")
            let claims = try JSONDecoder().decode(PromotionalOfferClaims.self, from: try #require(Base64URL.decode(parts[1])))
            #expect(claims.productId == "com.example.monthly" && claims.offerIdentifier == "STAY50" && claims.transactionId == ada)
            #expect(claims.bid == Storefront.bundleId && claims.aud == "promotional-offer")
            let again = try #require(try await Self.ask(s, ada)["promotionalOffer"] as? [String: Any])
            #expect(again["promotionalOfferSignatureV2"] as? String != jws, "each answer signs afresh")

            // French: the alternate product. German: no rule holds, so nothing (Apple shows the default message).
            let alternate = try #require(try await Self.ask(s, ada, locale: "fr-FR")["alternateProduct"] as? [String: Any])
            #expect(alternate["productId"] as? String == "com.example.yearly" && alternate["billingPlanType"] as? String == "MONTHLY")
            #expect(try await Self.ask(s, ada, locale: "de-DE").isEmpty)

            // Billing retry comes first; a refunded customer gets the refund rule's message.
            try await s.simulator.failRenewal(originalTransactionId: ada)
            try await s.processed(3)
            let retry = try await Self.ask(s, ada)
            #expect((retry["message"] as? [String: Any])?["messageIdentifier"] as? String == Self.calm, "\(retry)")
            _ = try await s.simulator.refund(transactionId: bea)
            try await s.processed(4)
            let refunded = try await Self.ask(s, bea)
            #expect((refunded["message"] as? [String: Any])?["messageIdentifier"] as? String == Self.refundedMessage, "\(refunded)")

            // V1 for apps configured so: the legacy signature over the customer's appAccountToken.
            var v1 = Self.rules
            v1.removeFirst()
            v1[1]["answer"] = ["promotionalOffer": ["offerIdentifier": "STAY50", "signatureVersion": "V1"]]
            _ = try await s.result("retention.rules.set", ["bundleId": Storefront.bundleId, "rules": v1])
            let legacy = try #require((try await Self.ask(s, ada)["promotionalOffer"] as? [String: Any])?["promotionalOfferSignatureV1"] as? [String: Any])
            #expect(legacy["appAccountToken"] as? String == token.uuidString.lowercased())
            #expect(legacy["keyId"] as? String == s.sim.key.keyId && legacy["offerIdentifier"] as? String == "STAY50")
            let payload = OfferSigner.legacyPayload(
                bundleId: Storefront.bundleId, keyId: s.sim.key.keyId, productId: "com.example.monthly", offerId: "STAY50",
                appAccountToken: token.uuidString, nonce: try #require(UUID(uuidString: legacy["nonce"] as? String ?? "")),
                timestamp: try #require(legacy["timestamp"] as? Int64))
            let der = try P256.Signing.ECDSASignature(derRepresentation: try #require(Data(base64Encoded: legacy["encodedSignature"] as? String ?? "")))
            #expect(s.sim.key.publicKey.isValidSignature(der, for: Data(payload.utf8)))

            // Every answer is evented, with the rule and never a signature.
            let events = try await Self.answered(s, count: 7)
            #expect(
                events.map { $0["rule"] as? String ?? "-" } == [
                    "stay-english", "stay-english", "switch-french", "-", "in-billing-retry", "refunded-before", "stay-english",
                ])
            #expect(events[3]["unanswered"] as? String == "noRuleHeld")
            let evented = try #require(events[0]["answer"] as? [String: Any])["promotionalOffer"] as? [String: Any]
            #expect(evented?["productId"] as? String == "com.example.monthly" && evented?["signatureVersion"] as? String == "V2")
            #expect(!"\(events)".contains(jws.prefix(40)))

            // Apple's performance test, started through Storegate, passes against this endpoint.
            let started = try await s.result("retention.performanceTest.start", ["bundleId": Storefront.bundleId, "originalTransactionId": ada])
            let requestId = try #require(started["requestId"] as? String)
            var results: [String: Any] = [:]
            try await s.eventually("the performance test's result") {
                results = try await s.result("retention.performanceTest.results", ["bundleId": Storefront.bundleId, "requestId": requestId])
                return results["result"] as? String != "PENDING"
            }
            #expect(results["result"] as? String == "PASS", "\(results)")
            #expect(results["successRate"] as? Int == 100, "\(results)")
        }
    }

    /// An answer that is not ready by its deadline (counted from the request's arrival) is not sent late:
    /// Apple gets `{}`, and the event says the answer was cut and at which step. Here the step is held up by a
    /// lock on the tenant's subscriptions, taken by another session as a slow migration would.
    @Test func anAnswerPastItsDeadlineIsSentAsNothingAndRecordedAsCut() async throws {
        // 6 s: past what reaching the rules takes on a loaded machine, within the simulator's 10 s for an answer.
        try await Storefront.with(slug: "retention-cut", retention: RetentionRuleService.Settings(deadline: .seconds(6))) { s in
            _ = try await s.result("retention.rules.set", ["bundleId": Storefront.bundleId, "rules": [Self.rules[2]]])
            let ada = try #require(try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("ada-device")).originalTransactionId)
            let bea = try #require(try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("bea-device")).originalTransactionId)
            try await s.processed(2)
            _ = try await s.result("retention.realtimeURL.configure", ["bundleId": Storefront.bundleId])
            // Another customer's request first, answered with the offer: the app's token, its rules and Apple's
            // chain are then cached, and what the lock holds up below is choosing, not reaching the rules. That
            // first answer may itself be cut on a loaded machine (CI beside stress-ng: signing the offer, the
            // key decrypted for the first time, ran past 6 s), so it is asked until one comes back whole.
            var asked = 0
            try await s.eventually("an answer with the offer, within the deadline") {
                asked += 1
                return try await Self.ask(s, bea)["promotionalOffer"] != nil
            }
            let schema = try TenantSchema(validating: s.tenant.tenant.storageName).sql
            try await s.capabilities.postgres.client.withConnection { conn in
                _ = try await conn.query("BEGIN", logger: s.capabilities.postgres.logger)
                _ = try await conn.query("LOCK TABLE \(unescaped: schema).subscriptions IN ACCESS EXCLUSIVE MODE", logger: s.capabilities.postgres.logger)
                #expect(try await Self.ask(s, ada).isEmpty, "Apple got {} at the deadline")
                _ = try await conn.query("ROLLBACK", logger: s.capabilities.postgres.logger)
            }
            // A cut answer is recorded when its work ends, so a cut first answer may be recorded after a later one.
            let answered = try await Self.answered(s, count: asked + 1)
            let (forBea, forAda) = (
                answered.filter { $0["originalTransactionId"] as? String == bea }, answered.filter { $0["originalTransactionId"] as? String == ada }
            )
            #expect(answered.count == asked + 1 && forBea.count == asked && forAda.count == 1, "\(answered)")
            #expect(forBea.contains { $0["rule"] as? String == "stay-english" && $0["cut"] == nil }, "\(forBea)")
            let cut = try #require(forAda.first)
            #expect(cut["unanswered"] as? String == "cut" && cut["answer"] == nil, "\(cut)")
            let why = try #require(cut["cut"] as? String)
            #expect(why.contains("not ready 6000 ms after the request arrived") && why.contains("choosing a rule"), "\(why)")
        }
    }

    @Test func conditionsOnTheSubscriptionsHistory() async throws {
        try await Storefront.with(slug: "retention-history") { s in
            let rules: [[String: Any]] = [
                ["name": "asked-for-a-refund", "when": ["consumptionRequested": true], "answer": ["message": ["messageIdentifier": Self.calm]]],
                ["name": "offer-taken", "when": ["offerRedeemed": true], "answer": ["message": ["messageIdentifier": Self.refundedMessage]]],
                ["name": "new", "when": ["maxTenureDays": 6], "answer": ["message": ["messageIdentifier": Self.stayMessage]]],
                ["name": "long-standing", "when": ["minTenureDays": 7], "answer": ["alternateProduct": ["productId": "com.example.yearly"]]],
            ]
            _ = try await s.result("retention.rules.set", ["bundleId": Storefront.bundleId, "rules": rules])
            _ = try await s.result("retention.realtimeURL.configure", ["bundleId": Storefront.bundleId])
            var bought20DaysAgo = AppStoreServerAPIClientTests.subscription("old-device")
            bought20DaysAgo.purchaseDate = Date() - 20 * 86_400
            let old = try #require(try await s.simulator.purchase(bought20DaysAgo).originalTransactionId)
            let new = try #require(try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("new-device")).originalTransactionId)
            let asking = try #require(try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("asking-device")).originalTransactionId)
            let taking = try #require(try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("taking-device")).originalTransactionId)
            try await s.processed(4)
            try await s.simulator.requestRefund(transactionId: asking)
            try await s.simulator.redeemOffer(originalTransactionId: taking, offerType: .promotionalOffer, offerIdentifier: "STAY50")
            try await s.processed(6)

            func message(_ id: String) async throws -> String? { (try await Self.ask(s, id)["message"] as? [String: Any])?["messageIdentifier"] as? String }
            #expect((try await Self.ask(s, old)["alternateProduct"] as? [String: Any])?["productId"] as? String == "com.example.yearly")
            #expect(try await message(new) == Self.stayMessage)
            #expect(try await message(asking) == Self.calm)
            #expect(try await message(taking) == Self.refundedMessage, "the offer accepted for the next renewal")
            // Renewed with the offer, then renewed again without: the offer is in the subscription's history.
            _ = try await s.simulator.renew(originalTransactionId: taking)
            _ = try await s.simulator.renew(originalTransactionId: taking)
            try await s.processed(8)
            #expect(try await message(taking) == Self.refundedMessage, "a renewal with the offer, two renewals ago")
        }
    }

    /// A rule can leave out a customer who just took a retention offer (offerType 5, App Store Connect's),
    /// and hold for 12-month commitments the customer cancelled: such a customer is asked to stay on the
    /// monthly plan (`alternateProduct.billingPlanType`, which reaches Apple's answer).
    @Test func retentionOffersAndCommitmentsChooseTheRule() async throws {
        try await Storefront.with(slug: "retention-2026") { s in
            let rules: [[String: Any]] = [
                [
                    "name": "keep-the-commitment", "when": ["billingPlanType": "MONTHLY", "commitmentRenews": false, "maxCommitmentMonthsLeft": 11],
                    "answer": ["alternateProduct": ["productId": "com.example.yearly", "billingPlanType": "MONTHLY"]],
                ],
                [
                    "name": "offer-once", "when": ["retentionOfferRedeemed": false],
                    "answer": ["promotionalOffer": ["offerIdentifier": "STAY50", "messageIdentifier": Self.stayMessage]],
                ],
                ["name": "otherwise", "answer": ["message": ["messageIdentifier": Self.calm]]],
            ]
            _ = try await s.result("retention.rules.set", ["bundleId": Storefront.bundleId, "rules": rules])
            _ = try await s.result("retention.realtimeURL.configure", ["bundleId": Storefront.bundleId])
            let fresh = try #require(try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("fresh-device")).originalTransactionId)
            let kept = try #require(try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("kept-device")).originalTransactionId)
            var commitment = AppStoreServerAPIClientTests.subscription("committed-device")
            commitment.productId = "com.example.yearly"
            commitment.billingPlanType = .monthly
            let committed = try #require(try await s.simulator.purchase(commitment).originalTransactionId)
            try await s.processed(3)
            // The customer takes a retention offer for the next renewal, which then renews with it.
            try await s.simulator.redeemOffer(originalTransactionId: kept, offerType: .retentionOffer, offerIdentifier: "WINBACK-RETAIN")
            try await s.processed(4)
            let status = try #require(
                (try await s.result("subscriptions.status", ["bundleId": Storefront.bundleId, "transactionId": kept])["subscriptions"] as? [[String: Any]])?
                    .first)
            #expect((status["renewal"] as? [String: Any])?["offerType"] as? Int == 5, "the retention offer accepted for the next renewal: \(status)")
            #expect((status["renewal"] as? [String: Any])?["offer"] as? String == "retentionOffer")
            _ = try await s.simulator.renew(originalTransactionId: kept)
            try await s.processed(5)
            let renewed = try #require(
                (try await s.result("subscriptions.status", ["bundleId": Storefront.bundleId, "transactionId": kept])["subscriptions"] as? [[String: Any]])?
                    .first)
            #expect(renewed["offer"] as? String == "retentionOffer" && renewed["offerIdentifier"] as? String == "WINBACK-RETAIN", "\(renewed)")
            // Apple's library keeps the 5 it does not know as its raw value.
            let signed = try #require(
                try await s.sim.client.getAllSubscriptionStatuses(anyTransactionId: kept).data?.first?.lastTransactions?.first?.signedTransactionInfo)
            let apple = try await AppleLibraryTests.appleVerifies(signed, kind: "transactionPlan", root: s.simulator.ca.rootDER)
            #expect(apple.status == 0 && apple.stdout.contains("\"offerType\": 5"), "\(apple.stdout)\(apple.stderr)")
            let purchases = try await s.result("events.list", ["types": ["purchase.created"], "limit": 100])["events"] as? [[String: Any]] ?? []
            #expect(purchases.contains { ($0["data"] as? [String: Any])?["offer"] as? String == "retentionOffer" }, "the renewal's event names the offer")

            #expect(try await Self.ask(s, fresh)["promotionalOffer"] != nil)
            let answer = try await Self.ask(s, kept)
            #expect(answer["promotionalOffer"] == nil && (answer["message"] as? [String: Any])?["messageIdentifier"] as? String == Self.calm, "\(answer)")
            // A commitment that renews: no rule on commitments holds, and it gets the offer; once cancelled, the plan.
            #expect(try await Self.ask(s, committed)["promotionalOffer"] != nil)
            try await s.simulator.setAutoRenew(originalTransactionId: committed, enabled: false)
            try await s.processed(6)
            let stay = try #require(try await Self.ask(s, committed)["alternateProduct"] as? [String: Any])
            #expect(stay["productId"] as? String == "com.example.yearly" && stay["billingPlanType"] as? String == "MONTHLY", "\(stay)")
            let events = try await Self.answered(s, count: 4)
            #expect(events.map { $0["rule"] as? String ?? "-" } == ["offer-once", "otherwise", "offer-once", "keep-the-commitment"], "\(events)")
        }
    }

    /// A request signed by `ca` (the simulator's by default) for `body`, posted to `token`'s endpoint.
    static func post(_ s: Storefront, token: String, _ body: DecodedRealtimeRequestBody, ca: SimulatorCA? = nil) async throws -> TestServer.Reply {
        let signed = try (ca ?? s.simulator.ca).sign(body)
        return try await s.server.request("/apple/retention/" + token, body: Array(try JSONEncoder().encode(RealtimeRequestBody(signedPayload: signed))))
    }

    static func request(
        _ originalTransactionId: String, appAppleId: Int64 = 1_234_567, environment: AppStoreEnvironment = .sandbox, signed: Date = Date()
    )
        -> DecodedRealtimeRequestBody
    {
        DecodedRealtimeRequestBody(
            originalTransactionId: originalTransactionId, appAppleId: appAppleId, productId: "com.example.monthly", userLocale: "en-US",
            requestIdentifier: LowercaseUUID(UUID()), signedDate: Timestamp(signed), environment: environment)
    }

    @Test func requestsStoregateCannotTrustAreRefused() async throws {
        try await Storefront.with(slug: "retention-refusals", environments: ["Sandbox", "Production"]) { s in
            _ = try await s.result("retention.rules.set", ["bundleId": Storefront.bundleId, "rules": [Self.rules[3]]])
            let app = try await s.capabilities.apps.get(tenant: s.tenant.tenant, bundleId: Storefront.bundleId)
            let sandbox = try #require(app.notificationURLs.first { $0.environment == .sandbox }?.token)
            let production = try #require(app.notificationURLs.first { $0.environment == .production }?.token)
            let id = try #require(try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("cy-device")).originalTransactionId)
            try await s.processed(1)

            let trusted = try await Self.post(s, token: sandbox, Self.request(id))
            #expect(trusted.status == 200 && trusted.text == "{}", "no rule holds for en-US: \(trusted.text)")
            #expect(try await Self.post(s, token: sandbox, Self.request(id), ca: try SimulatorCA()).status == 403, "another chain")
            #expect(try await Self.post(s, token: sandbox, Self.request(id, signed: Date() - 301)).status == 403, "replayed after the window")
            // Well past the 60 s allowed: one second past it was let through on a busy machine, the request taking that long to arrive.
            #expect(try await Self.post(s, token: sandbox, Self.request(id, signed: Date() + 180)).status == 403, "signed in the future")
            #expect(try await Self.post(s, token: production, Self.request(id)).status == 403, "a Sandbox request at the Production URL")
            // In Production the app Apple ID must be the app's (42 in Storegate): the request of another app is refused.
            #expect(try await Self.post(s, token: production, Self.request(id, environment: .production)).status == 403, "another app")
            let own = try await Self.post(s, token: production, Self.request(id, appAppleId: 42, environment: .production))
            #expect(own.status == 200 && own.text == "{}", "the app's own Production request; its subscription is a Sandbox one: \(own.text)")
            #expect(try await s.server.request("/apple/retention/" + sandbox, body: Array(#"{"signed":1}"#.utf8)).status == 400)
            #expect(try await Self.post(s, token: String(repeating: "A", count: 43), Self.request(id)).status == 404)
            let events = try await Self.answered(s, count: 2)
            #expect(events.map { $0["unanswered"] as? String } == ["noRuleHeld", "unknownSubscription"], "refused requests are not answers")
        }
    }

    @Test func aTenantsTokenAnswersOnlyWithItsOwnRulesAndKeys() async throws {
        try await Storefront.with(slug: "retention-tenant-a") { s in
            _ = try await s.result("retention.rules.set", ["bundleId": Storefront.bundleId, "rules": [Self.rules[2]]])
            let other = try await Fixtures.tenant(s.capabilities, slug: "retention-tenant-b", bundleId: Storefront.bundleId)
            _ = try await s.capabilities.retentionRules.setRules(
                tenant: other.tenant.tenant, bundleId: Storefront.bundleId,
                rules: [RetentionRule(name: "b-always", answer: RetentionAnswer(message: RetentionMessageAnswer(messageIdentifier: Self.calm)))],
                actor: Actor("test"))
            let otherToken = try #require(
                try await s.capabilities.apps.get(tenant: other.tenant.tenant, bundleId: Storefront.bundleId).notificationURLs.first {
                    $0.environment == .sandbox
                }?
                .token)
            let ownToken = try #require(s.webhookURL.split(separator: "/").last.map(String.init))
            let id = try #require(try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("di-device")).originalTransactionId)
            try await s.processed(1)

            let own = try await Self.post(s, token: ownToken, Self.request(id))
            let offer = try #require((own.json as? [String: Any])?["promotionalOffer"] as? [String: Any], Comment(rawValue: own.text))
            #expect(offer["promotionalOfferSignatureV2"] is String)
            // Tenant B has no such subscription: B's rule that always holds does not answer for A's customer.
            let crossed = try await Self.post(s, token: otherToken, Self.request(id))
            #expect(crossed.status == 200 && crossed.text == "{}", Comment(rawValue: crossed.text))
            try await s.eventually("tenant B's answer recorded") {
                try await s.capabilities.events.list(tenant: other.tenant.tenant, after: nil, types: [.retentionAnswered], limit: 10).events.count == 1
            }
            #expect(try await Self.answered(s, count: 1).count == 1, "A's feed has A's answer only")
        }
    }

    @Test func rulesAreCheckedAndMisspeltFieldsRefused() async throws {
        try await Storefront.with(slug: "retention-rule-checks") { s in
            let message: [String: Any] = ["message": ["messageIdentifier": Self.calm]]
            let refused: [(rules: [[String: Any]], field: String)] = [
                ([["name": "a", "whenn": [:], "answer": message]], "rules[0].whenn"),
                ([["name": "a", "when": ["productId": ["x"]], "answer": message]], "rules[0].when.productId"),
                ([["name": "a", "answer": ["message": ["messageIdentifier": "nope"]]]], "rules[0].answer.message.messageIdentifier"),
                ([["name": "a", "answer": message.merging(["alternateProduct": ["productId": "y"]]) { a, _ in a }]], "rules[0].answer"),
                ([["name": "a", "answer": message], ["name": "a", "answer": message]], "rules[1].name"),
                ([["name": "a", "when": ["minTenureDays": 30, "maxTenureDays": 7], "answer": message]], "rules[0].when.maxTenureDays"),
                ([["name": "a", "when": ["locales": ["EN-us-"]], "answer": message]], "rules[0].when.locales[0]"),
            ]
            for (rules, field) in refused {
                let reply = try await s.call("retention.rules.set", ["bundleId": Storefront.bundleId, "rules": rules])
                #expect(RetentionMethodsTests.error(reply).field == field, "\(reply)")
            }
            let stored = try await s.result("retention.rules.get", ["bundleId": Storefront.bundleId])["rules"] as? [Any]
            #expect(stored?.isEmpty == true, "nothing was half-set")
        }
    }
}
