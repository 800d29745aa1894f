import AppStoreServer
import AppStoreSimulator
import Foundation
import JSONRPC
import Storegate
import StoregateServer
import Synchronization
import Testing

/// Each RPC method is declared once (its `Params` and `Result` types); these tests check that what the
/// OpenRPC document says is what the code does. Every result a test receives through `TestServer.call` is
/// also validated against its method's documented schema (see `ResultContract`).
@Suite struct ContractTests {
    /// The documented parameters are exactly the ones the method decodes, required exactly when documented so.
    @Test(arguments: StoregateRPC.registry.descriptions.map(\.name))
    func paramsAgreeWithTheirDocumentation(_ name: String) throws {
        let method = try #require(StoregateRPC.registry.methods[name])
        let decoded = try ParamsProbe.keys(of: method.paramsType)
        let documented = method.description.params
        #expect(Set(documented.filter(\.required).map(\.name)) == decoded.required, "\(name): required parameters")
        #expect(Set(documented.filter { !$0.required }.map(\.name)) == decoded.optional, "\(name): optional parameters")
        #expect(Set(documented.map(\.name)).count == documented.count, "\(name): a parameter documented twice")
    }

    /// The checks above can fail: the validator refuses what a schema does not allow, and the probe tells
    /// required from optional.
    @Test func theChecksCanFail() throws {
        let schema = StoregateRPC.registry.methods["accounts.ensure"]!.description.resultSchema
        let good: JSONValue = [
            "customerId": "ivy", "appAccountToken": .string(UUID().uuidString.lowercased()), "createdAt": "2026-11-24T10:00:00Z", "links": [],
        ]
        #expect(SchemaValidator.violations(of: good, against: schema).isEmpty)
        let bad: JSONValue = ["customerId": .number(1), "appAccountToken": "not-a-uuid", "createdAt": "2026-11-24T10:00:00Z", "links": [], "extra": true]
        #expect(SchemaValidator.violations(of: bad, against: schema).count == 3, "\(SchemaValidator.violations(of: bad, against: schema))")

        struct Sample: Decodable {
            let needed: String
            let maybe: String?
            let maybeNumber: Int?
            let when: Date
        }
        let keys = try ParamsProbe.keys(of: Sample.self)
        #expect(keys.required == ["needed", "when"] && keys.optional == ["maybe", "maybeNumber"])
    }

    /// Every method in `api-spec/openrpc.json` is called once with real data (Storegate, the simulator and
    /// PostgreSQL over HTTP), and its result validates against the method's result schema.
    @Test func everyMethodAnswersWithItsDocumentedResult() async throws {
        try await WebhookReceiver().with { url in try await Self.callEveryMethod(webhookURL: url) }
    }

    static func callEveryMethod(webhookURL: String) async throws {
        try await Storefront.with(slug: "contract") { s in
            let called = Mutex<Set<String>>([])
            func result(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
                called.withLock { _ = $0.insert(method) }
                return try await s.result(method, params)  // validated against the schema by TestServer.call
            }
            let bundleId = Storefront.bundleId
            _ = try await result("rpc.discover")
            _ = try await result("tenant.get")
            let apps = try await result("apps.list")
            let appId = try #require(((apps["apps"] as? [[String: Any]])?.first)?["id"] as? String)
            _ = try await result("apps.get", ["appId": appId])
            // An endpoint for every event from here on (deliveries and events are listed at the end).
            let endpoint = try await result("webhooks.create", ["url": webhookURL, "description": "contract"])
            let endpointId = try #require(endpoint["id"] as? String)

            _ = try await result(
                "offers.signPromotional",
                ["bundleId": bundleId, "productId": "com.example.monthly", "offerId": "winback", "appAccountToken": UUID().uuidString])
            _ = try await result("offers.signPromotionalJWS", ["bundleId": bundleId, "productId": "com.example.monthly", "offerId": "winback"])
            _ = try await result(
                "offers.signIntroductoryEligibility",
                ["bundleId": bundleId, "productId": "com.example.monthly", "allowIntroductoryOffer": true, "transactionId": "1"])
            _ = try await result(
                "offers.signAdvancedCommerceRequest",
                [
                    "bundleId": bundleId,
                    "request": ["operation": "CREATE_ONE_TIME_CHARGE", "version": "1", "requestInfo": ["requestReferenceId": UUID().uuidString]],
                ])

            // A customer with a subscription and a consumable, linked from the device's signed data.
            let customer = try await result("accounts.ensure", ["customerId": "ivy"])
            let token = try #require(UUID(uuidString: customer["appAccountToken"] as? String ?? ""))
            let subscription = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("ivy-device", token: token))
            let coins = try await s.simulator.purchase(RefundDecisioningTests.coins("ivy-device"))
            let original = try #require(subscription.originalTransactionId)
            let coinsId = try #require(coins.transactionId)
            try await s.processed(2)
            let signedCoins = try #require(try await s.sim.client.getTransactionInfo(transactionId: coinsId).signedTransactionInfo)
            _ = try await result("accounts.linkTransaction", ["bundleId": bundleId, "customerId": "ivy", "signedTransaction": signedCoins])
            let appTransaction = try #require(try await s.sim.client.getAppTransactionInfo(anyTransactionId: coinsId).signedAppTransactionInfo)
            _ = try await result("accounts.linkAppTransaction", ["bundleId": bundleId, "customerId": "ivy", "signedAppTransaction": appTransaction])
            _ = try await result("accounts.setAppAccountToken", ["bundleId": bundleId, "customerId": "ivy", "originalTransactionId": original])
            _ = try await result("accounts.resolve", ["bundleId": bundleId, "transactionId": coinsId])

            _ = try await result("subscriptions.status", ["customerId": "ivy", "refresh": true])
            let grant = try await result("entitlements.grant", ["customerId": "ivy", "entitlement": "premium", "days": 3, "reason": "an outage"])
            _ = try await result("entitlements.list", ["customerId": "ivy"])
            _ = try await result("entitlements.check", ["customerId": "ivy", "entitlement": "premium"])
            _ = try await result("entitlements.revokeGrant", ["customerId": "ivy", "grantId": grant["grantId"] as? String ?? "", "reason": "a mistake"])
            _ = try await result("entitlements.grants", ["customerId": "ivy"])
            _ = try await result("customers.setAttributes", ["customerId": "ivy", "set": ["plan": "team"], "remove": ["old"]])
            _ = try await result("customers.attributes", ["customerId": "ivy"])
            let note = try await result("customers.addNote", ["customerId": "ivy", "text": "asked about the outage"])
            _ = try await result("customers.notes", ["customerId": "ivy", "limit": 10])
            _ = try await result("customers.deleteNote", ["customerId": "ivy", "noteId": note["noteId"] as? String ?? ""])
            _ = try await result("accounts.ensure", ["customerId": "leaving"])
            _ = try await result("customers.delete", ["customerId": "leaving"])
            _ = try await result("catalog.get")
            _ = try await result("exports.read", ["what": "events", "from": "2026-01-01T00:00:00Z", "to": "2030-01-01T00:00:00Z", "limit": 5])
            _ = try await result("metrics.get", ["from": "2026-01-01T00:00:00Z", "to": "2026-12-31T00:00:00Z", "step": "month"])
            _ = try await result("metrics.cohorts", ["from": "2026-01-01T00:00:00Z", "to": "2026-03-31T00:00:00Z", "convertTo": "USD"])
            _ = try await result(
                "catalog.set",
                [
                    "products": [["bundleId": bundleId, "productId": "com.example.monthly", "type": "Auto-Renewable Subscription", "displayName": "Monthly"]],
                    "entitlements": [["name": "pro", "description": "", "productIds": ["com.example.monthly"]]],
                ])
            _ = try await result("catalog.unknownProducts")
            _ = try await result(
                "subscriptions.extendRenewalDate", ["bundleId": bundleId, "originalTransactionId": original, "extendByDays": 3, "extendReasonCode": 1])
            let mass = try await result(
                "subscriptions.extendAll", ["bundleId": bundleId, "productId": "com.example.monthly", "extendByDays": 1, "extendReasonCode": 3])
            _ = try await result(
                "subscriptions.extensionStatus",
                ["bundleId": bundleId, "productId": "com.example.monthly", "requestIdentifier": try #require(mass["requestIdentifier"] as? String)])

            // Refunds: a policy, a consumption request answered from reported facts, Apple's refund, its history.
            _ = try await result("refunds.setPolicy", ["bundleId": bundleId, "customerConsented": true, "refundPreference": "DECLINE"])
            let policy = try await result("refunds.getPolicy", ["bundleId": bundleId])
            #expect(policy["customerConsented"] as? Bool == true && policy["refundPreference"] as? String == "DECLINE", "the policy set is read")
            try await s.simulator.requestRefund(transactionId: coinsId, reason: .unsatisfiedWithPurchase)
            try await s.processed(6)  // 2 purchases, RENEWAL_EXTENDED twice, the mass extension's summary, the request
            _ = try await result("refunds.pending", ["bundleId": bundleId])
            _ = try await result(
                "refunds.reportConsumption",
                [
                    "bundleId": bundleId, "transactionId": coinsId, "customerConsented": true, "deliveryStatus": "DELIVERED", "sampleContentProvided": false,
                    "consumptionPercentage": 25_000,
                ])
            try await s.eventually("the consumption information sent") { await s.store.consumptionReports[coinsId] != nil }
            _ = try await s.simulator.refund(transactionId: coinsId, percentage: 75_000)
            try await s.processed(7)
            _ = try await result("refunds.outcomes", ["customerId": "ivy"])
            _ = try await result("refunds.history", ["bundleId": bundleId, "transactionId": coinsId])
            _ = try await result("refunds.lookupOrder", ["bundleId": bundleId, "orderId": try #require(await s.store.orderId(of: coinsId))])

            // Apple's lookups, verified and stored; a server-side restore; an external purchase token Apple announced.
            _ = try await result("transactions.get", ["bundleId": bundleId, "transactionId": coinsId])
            _ = try await result("transactions.history", ["bundleId": bundleId, "transactionId": coinsId, "productTypes": ["Consumable"]])
            _ = try await result("appTransactions.get", ["bundleId": bundleId, "transactionId": coinsId])
            _ = try await result("customers.sync", ["customerId": "ivy"])
            _ = try await result("customers.export", ["customerId": "ivy"])
            try await s.simulator.unreportedExternalPurchaseToken(bundleId: bundleId)
            try await s.processed(8)
            _ = try await result("externalPurchaseTokens.list", ["bundleId": bundleId])

            // Finish Transaction; the Advanced Commerce operations, on a subscription of their own.
            _ = try await result("transactions.finish", ["bundleId": bundleId, "transactionId": coinsId])
            let commerce = try #require(try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("ivy-commerce")).originalTransactionId)
            func on(_ more: [String: Any]) -> [String: Any] { more.merging(["bundleId": bundleId, "transactionId": commerce]) { a, _ in a } }
            _ = try await result(
                "advancedCommerce.changeMetadata", on(["items": [["currentSKU": "premium", "effective": "IMMEDIATELY", "displayName": "Premium+"]]]))
            _ = try await result("advancedCommerce.changePrice", on(["items": [["SKU": "premium", "price": 12_990]]]))
            _ = try await result(
                "advancedCommerce.migrate",
                on([
                    "descriptors": ["description": "Pro", "displayName": "Pro"],
                    "items": [["SKU": "premium", "description": "Premium", "displayName": "Premium"]],
                    "targetProductId": "com.example.aca", "taxCode": "C003-00-1",
                ]))
            _ = try await result("advancedCommerce.cancel", on([:]))
            _ = try await result(
                "advancedCommerce.requestRefund",
                on(["refundRiskingPreference": true, "items": [["SKU": "premium", "refundReason": "OTHER", "refundType": "FULL", "revoke": false]]]))
            _ = try await result("advancedCommerce.revoke", on(["refundReason": "LEGAL", "refundType": "FULL", "refundRiskingPreference": false]))

            _ = try await result("notifications.list", ["bundleId": bundleId])
            _ = try await result("notifications.backfill", ["bundleId": bundleId, "startDate": (Date() - 3600).formatted(.iso8601)])
            let test = try await result("notifications.requestTest", ["bundleId": bundleId])
            _ = try await result(
                "notifications.testStatus", ["bundleId": bundleId, "testNotificationToken": try #require(test["testNotificationToken"] as? String)])

            // Retention Messaging with Apple: an image and a message (approved by the simulator's review), a default
            // message, the realtime URL, the performance test.
            let app = ["bundleId": bundleId]
            let image = try #require(
                try await result(
                    "retention.images.upload",
                    ["bundleId": bundleId, "imageSize": "BULLET_POINT", "png": PNGFixture.solid(width: 48, height: 48).base64EncodedString()])[
                        "imageIdentifier"] as? String)
            _ = try await result("retention.images.list", app)
            #expect(await s.store.review(bundleId: bundleId, identifier: try #require(UUID(uuidString: image)), approved: true))
            let message = try #require(
                try await result("retention.messages.upload", ["bundleId": bundleId, "header": "Before you go", "body": "Stay a while."])["messageIdentifier"]
                    as? String)
            _ = try await result("retention.messages.list", app)
            #expect(await s.store.review(bundleId: bundleId, identifier: try #require(UUID(uuidString: message)), approved: true))
            let product = ["bundleId": bundleId, "productId": "com.example.monthly", "locale": "en-US"]
            _ = try await result("retention.defaults.configure", product.merging(["messageIdentifier": message]) { a, _ in a })
            _ = try await result("retention.defaults.get", product)
            _ = try await result("retention.defaults.delete", product)
            _ = try await result("retention.messages.delete", app.merging(["messageIdentifier": message]) { a, _ in a })
            _ = try await result("retention.images.delete", app.merging(["imageIdentifier": image]) { a, _ in a })
            let rules: [[String: Any]] = [
                [
                    "name": "offer", "when": ["productIds": ["com.example.monthly"], "locales": ["en"], "minTenureDays": 0, "refunded": false],
                    "answer": ["promotionalOffer": ["offerIdentifier": "STAY50", "messageIdentifier": message, "signatureVersion": "V1"]],
                ],
                ["name": "switch", "answer": ["alternateProduct": ["productId": "com.example.yearly", "billingPlanType": "MONTHLY"]]],
                ["name": "message", "answer": ["message": ["messageIdentifier": message]]],
            ]
            _ = try await result("retention.rules.set", ["bundleId": bundleId, "rules": rules])
            _ = try await result("retention.rules.get", ["bundleId": bundleId])
            _ = try await result("retention.realtimeURL.configure", app)
            _ = try await result("retention.realtimeURL.get", app)
            let performance = try await result("retention.performanceTest.start", app.merging(["originalTransactionId": original]) { a, _ in a })
            _ = try await result(
                "retention.performanceTest.results", app.merging(["requestId": try #require(performance["requestId"] as? String)]) { a, _ in a })
            _ = try await result("retention.realtimeURL.delete", app)

            // Every event so far, as the feed and webhooks show them; the endpoint's deliveries and its management.
            _ = try await result("events.list", ["limit": 500])
            try await s.eventually("deliveries") {
                ((try await s.result("webhooks.deliveries", ["endpointId": endpointId, "status": "delivered"]))["deliveries"] as? [Any])?.isEmpty == false
            }
            let deliveries = try await result("webhooks.deliveries", ["endpointId": endpointId])
            let deliveryId = try #require((deliveries["deliveries"] as? [[String: Any]])?.first?["id"] as? String)
            _ = try await result("webhooks.redeliver", ["deliveryId": deliveryId])
            _ = try await result("webhooks.list")
            _ = try await result("webhooks.update", ["id": endpointId, "url": webhookURL, "eventTypes": ["refund.granted"], "bundleId": bundleId])
            _ = try await result("webhooks.rotateSecret", ["id": endpointId])
            _ = try await result("webhooks.test", ["id": endpointId])
            _ = try await result("webhooks.delete", ["id": endpointId])
            // Everything above, as the tenant's audit log tells it: signings, calls to Apple, grants, webhooks.
            _ = try await result("dataRetention.get")
            _ = try await result("dataRetention.set", ["webhookDeliveries": 43_200, "consoleSessions": 1])
            let audit = try await result("audit.list", ["limit": 200])
            #expect((audit["entries"] as? [Any])?.isEmpty == false)
            _ = try await result("audit.list", ["action": "webhook.", "limit": 1, "before": audit["next"] as? Int ?? 1_000_000])

            let documented = Set(StoregateRPC.registry.descriptions.map(\.name))
            #expect(called.withLock { $0 } == documented, "every documented method is called")
        }
    }
}

/// Checks a result received over HTTP against its method's result schema in the OpenRPC document.
enum ResultContract {
    static func check(method: String, response: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        guard let schema = StoregateRPC.registry.methods[method]?.description.resultSchema,
            let reply = try? JSONParser.parse(response), let result = reply["result"]
        else { return }
        for violation in SchemaValidator.violations(of: result, against: schema) {
            Issue.record("\(method) answered outside its documented result: \(violation)", sourceLocation: sourceLocation)
        }
    }
}
