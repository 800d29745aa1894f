import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import HTTPTypes
import KeyVault
import PostgresNIO
import Storegate
import StoregatePostgres
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Tenant events: written with their changes, read in order from `events.list`, and sent to webhook
/// endpoints signed per Standard Webhooks (checked by Python's hmac), at least once.
@Suite(.timeLimit(.minutes(10))) struct WebhookTests {
    static func data(_ event: [String: Any]) -> [String: Any] { event["data"] as? [String: Any] ?? [:] }

    /// JSON re-serialized with sorted keys, to compare a feed event with a webhook body.
    static func canonical(_ object: Any) -> String {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    @Test func aPurchaseRenewalRefundAndConsumptionRequestMakeTheirEventsInOrderOnTheFeedAndAtAReceiver() async throws {
        let receiver = WebhookReceiver()
        try await receiver.with { url in
            try await Storefront.with(slug: "events") { s in
                let created = try await s.result("webhooks.create", ["url": url, "description": "our backend"])
                let secret = try #require(created["secret"] as? String)
                #expect(secret.hasPrefix("whsec_"))
                #expect((try await s.result("webhooks.list")["endpoints"] as? [[String: Any]])?.first?["secret"] == nil, "the secret is shown once")

                // A subscription bought and renewed.
                var monthly = SimulatorStore.Purchase(
                    customer: "ann", bundleId: Storefront.bundleId, productId: "com.example.monthly", type: .autoRenewableSubscription)
                monthly.subscriptionGroupIdentifier = "group.premium"
                let original = try #require(try await s.simulator.purchase(monthly).transactionId)
                try await s.processed(1)
                let renewal = try #require(try await s.simulator.renew(originalTransactionId: original).transactionId)
                try await s.processed(2)

                // Four coins, linked to a customer; Apple asks for consumption information; the facts go out;
                // a 75 % prorated refund follows: revoke 3 of the 4.
                let coins = try #require(try await s.simulator.purchase(RefundDecisioningTests.coins("cy")).transactionId)
                try await s.processed(3)
                _ = try await s.result(
                    "accounts.linkTransaction",
                    [
                        "bundleId": Storefront.bundleId, "customerId": "cy",
                        "signedTransaction": try #require(try await s.sim.client.getTransactionInfo(transactionId: coins).signedTransactionInfo),
                    ])
                try await s.simulator.requestRefund(transactionId: coins, reason: .unsatisfiedWithPurchase)
                try await s.processed(4)
                _ = try await s.result(
                    "refunds.reportConsumption",
                    [
                        "bundleId": Storefront.bundleId, "transactionId": coins, "customerConsented": true, "deliveryStatus": "DELIVERED",
                        "sampleContentProvided": false, "consumptionPercentage": 25_000, "refundPreference": "GRANT_PRORATED",
                    ])
                try await s.eventually("consumption sent") {
                    ((try await s.result("refunds.pending", ["bundleId": Storefront.bundleId, "status": "sent"]))["requests"] as? [Any])?.isEmpty == false
                }
                _ = try await s.simulator.refund(transactionId: coins, percentage: 75_000)
                try await s.processed(5)

                // The feed: every event, numbered 1…n without gaps, in the order their changes committed.
                let feed = try await s.result("events.list", ["limit": 500])
                let events = try #require(feed["events"] as? [[String: Any]])
                let types = events.map { $0["type"] as? String ?? "" }
                #expect(
                    types == [
                        "notification.received", "purchase.created", "subscription.updated", "subscription.started",  // SUBSCRIBED
                        "notification.received", "purchase.created", "subscription.updated", "subscription.renewed",  // DID_RENEW
                        "notification.received", "purchase.created", "purchase.consumable",  // ONE_TIME_CHARGE
                        "account.linked", "account.linked",  // accounts.linkTransaction: the original transaction and the app transaction
                        "notification.received", "consumption.requested",  // CONSUMPTION_REQUEST
                        "consumption.sent",  // Send Consumption Information answered
                        "notification.received", "refund.granted", "purchase.refunded",  // REFUND
                    ], "\(types)")
                #expect(events.map { $0["sequence"] as? Int ?? 0 } == Array(1...events.count))
                #expect(feed["next"] as? Int == events.count)
                #expect((try await s.result("events.list", ["after": events.count])["events"] as? [Any])?.isEmpty == true)
                let refunds = try await s.result("events.list", ["types": ["refund.granted", "consumption.requested"]])
                #expect((refunds["events"] as? [[String: Any]])?.map { $0["type"] as? String ?? "" } == ["consumption.requested", "refund.granted"])

                // What each says.
                let subscribed = Self.data(events[2])
                #expect(subscribed["originalTransactionId"] as? String == original)
                #expect(subscribed["previous"] == nil)
                #expect((subscribed["current"] as? [String: Any])?["status"] as? String == "active")
                let renewed = Self.data(events[6])
                #expect(renewed["latestTransactionId"] as? String == renewal)
                let before = try #require(renewed["previous"] as? [String: Any])
                let after = try #require(renewed["current"] as? [String: Any])
                #expect((before["expiresDate"] as? String ?? "") < (after["expiresDate"] as? String ?? ""), "the renewal moved the expiry: \(renewed)")
                #expect(events[5]["customerId"] == nil, "no customer is known for the subscription")
                #expect(Self.data(events[9])["transactionId"] as? String == coins)
                #expect(events[11...12].map { $0["customerId"] as? String } == ["cy", "cy"])
                let links = Dictionary(events[11...12].map { (Self.data($0)["kind"] as? String ?? "", Self.data($0)["value"] as? String ?? "") }) { a, _ in a }
                #expect(Set(links.keys) == ["originalTransactionId", "appTransactionId"], "\(links)")
                #expect(links["originalTransactionId"] == coins)
                let requested = Self.data(events[14])
                #expect(requested["transactionId"] as? String == coins)
                #expect(requested["deadline"] is String)
                #expect(events[14]["customerId"] as? String == "cy")
                #expect(Self.data(events[15])["api"] as? String == "v2")
                let refund = Self.data(events[17])
                #expect(refund["refundPercentage"] as? Int == 75_000)
                #expect(refund["revocationType"] as? String == "REFUND_PRORATED")
                let revoke = refund["revoke"] as? [String: Any]
                #expect(revoke?["action"] as? String == "revokeQuantity")
                #expect(revoke?["quantity"] as? Int == 3, "75% of 4 coins")
                #expect(events[17]["customerId"] as? String == "cy")
                // `notification.received` carries Apple's signed payload as sent: the first notification's.
                let sent = await s.store.sentNotifications(bundleId: Storefront.bundleId)
                let signedPayload = try #require(Self.data(events[0])["signedPayload"] as? String)
                let middle = try #require(signedPayload.split(separator: ".").dropFirst().first)
                let decoded = try #require(Base64URL.decode(String(middle)))
                let payload = try #require(try JSONSerialization.jsonObject(with: decoded) as? [String: Any])
                #expect(payload["notificationUUID"] as? String == sent.first?.payload.notificationUUID)
                #expect(Self.data(events[0])["notificationUUID"] as? String == (payload["notificationUUID"] as? String)?.lowercased())
                for event in events {
                    #expect((event["id"] as? String)?.hasPrefix("evt_") == true)
                    #expect(event["bundleId"] as? String == Storefront.bundleId)
                    #expect(event["environment"] as? String == "Sandbox" || event["type"] as? String == "account.linked")
                }

                // The receiver: each event once, exactly as the feed shows it, signed with the endpoint's secret.
                try await receiver.wait(for: events.count)
                try await Task.sleep(for: .milliseconds(300))
                let messages = receiver.messages.sorted { ($0.sequence ?? 0) < ($1.sequence ?? 0) }
                #expect(messages.count == events.count, "each event once")
                #expect(messages.map(\.id) == events.map { $0["id"] as? String ?? "" })
                #expect(messages.map { Self.canonical($0.json) } == events.map { Self.canonical($0) })
                let checks = try await WebhookReceiver.verify(messages, secrets: [secret, StandardWebhooks.newSecret()])
                #expect(checks.count == messages.count)
                #expect(checks.allSatisfy { $0.signedBy == [0] && $0.signatures == 1 }, "\(checks)")

                let deliveries = try await s.result("webhooks.deliveries", ["status": "delivered", "limit": 100])
                #expect((deliveries["deliveries"] as? [Any])?.count == events.count)
            }
        }
    }

    /// A purchase that carries a customer's `appAccountToken` links its original transaction to that
    /// customer as it is applied: `account.linked` comes before `purchase.created`, both naming the customer.
    @Test func aPurchaseWithAKnownAppAccountTokenLinksItsCustomer() async throws {
        try await Storefront.with(slug: "token-link") { s in
            let ensured = try await s.result("accounts.ensure", ["customerId": "tia"])
            let token = try #require((ensured["appAccountToken"] as? String).flatMap(UUID.init(uuidString:)))
            var purchase = RefundDecisioningTests.coins("tia")
            purchase.appAccountToken = token
            let id = try #require(try await s.simulator.purchase(purchase).transactionId)
            try await s.processed(1)
            let events = try #require(try await s.result("events.list")["events"] as? [[String: Any]])
            #expect(events.map { $0["type"] as? String ?? "" } == ["notification.received", "account.linked", "purchase.created", "purchase.consumable"])
            #expect(events.dropFirst().allSatisfy { $0["customerId"] as? String == "tia" })
            #expect(Self.data(events[1])["kind"] as? String == "originalTransactionId")
            #expect(Self.data(events[1])["value"] as? String == id)
            #expect(Self.data(events[2])["appAccountToken"] as? String == token.uuidString.lowercased())
        }
    }

    /// A purchase's `purchase.created`, and nothing else, for an endpoint that asks for that type only.
    static func purchase(_ s: Storefront, customer: String) async throws -> String {
        let id = try #require(try await s.simulator.purchase(RefundDecisioningTests.coins(customer)).transactionId)
        return id
    }

    @Test func aReceiverThatFailsThreeTimesGetsTheEventAgainAfterEachFailureWithBackoff() async throws {
        let receiver = WebhookReceiver(statuses: [.internalServerError, .internalServerError, .internalServerError])
        try await receiver.with { url in
            try await Storefront.with(slug: "retries") { s in
                let created = try await s.result("webhooks.create", ["url": url, "eventTypes": ["purchase.created"]])
                let endpointId = try #require(created["id"] as? String)
                _ = try await Self.purchase(s, customer: "rita")
                try await s.processed(1)
                try await receiver.wait(for: 4)
                try await Task.sleep(for: .milliseconds(300))
                let messages = receiver.messages
                #expect(messages.count == 4, "three failures, then the delivery, and no more")
                #expect(Set(messages.map(\.id)).count == 1, "the same message each time")
                #expect(messages.allSatisfy { $0.type == "purchase.created" })

                try await s.eventually("the delivery recorded as delivered") {
                    let listed = try await s.result("webhooks.deliveries", ["endpointId": endpointId])
                    return (listed["deliveries"] as? [[String: Any]])?.first?["status"] as? String == "delivered"
                }
                let listed = try await s.result("webhooks.deliveries", ["endpointId": endpointId])
                let delivery = try #require((listed["deliveries"] as? [[String: Any]])?.first)
                #expect(delivery["eventId"] as? String == messages[0].id)
                let attempts = try #require(delivery["attempts"] as? [[String: Any]])
                #expect(attempts.map { $0["statusCode"] as? Int } == [500, 500, 500, 200])
                #expect(attempts.allSatisfy { $0["latencyMs"] is Int })
                // Backoff: 300 ms, then 600 ms, then 1.2 s (each with jitter between half and all of it).
                let times = attempts.compactMap { ($0["attemptedAt"] as? String).flatMap { try? Date($0, strategy: .iso8601) } }
                let received = messages.map(\.receivedAt)
                let gaps = zip(received.dropFirst(), received).map { $0.timeIntervalSince($1) }
                #expect(times.count == 4)
                #expect(gaps.count == 3 && gaps[0] >= 0.14 && gaps[1] >= 0.29 && gaps[2] >= 0.59, "growing gaps: \(gaps)")
            }
        }
    }

    @Test func aRotatedSecretSignsBesideTheNewOneUntilItExpires() async throws {
        let receiver = WebhookReceiver()
        try await receiver.with { url in
            try await Storefront.with(slug: "rotation") { s in
                let created = try await s.result("webhooks.create", ["url": url, "eventTypes": ["purchase.created"]])
                let id = try #require(created["id"] as? String)
                let old = try #require(created["secret"] as? String)
                let rotated = try await s.result("webhooks.rotateSecret", ["id": id])
                let new = try #require(rotated["secret"] as? String)
                #expect(new != old)

                _ = try await Self.purchase(s, customer: "rob")
                try await receiver.wait(for: 1)
                var checks = try await WebhookReceiver.verify(receiver.messages, secrets: [new, old])
                #expect(checks.first?.signatures == 2, "both signatures during the overlap")
                #expect(checks.first?.signedBy == [0, 1])

                // 24 hours later (the old secret's expiry moved to the past): only the new signature.
                try await s.capabilities.postgres.client.withConnection { conn in
                    try await conn.run(
                        "UPDATE storegate.webhook_secrets SET expires_at = now() - interval '1 second' WHERE expires_at IS NOT NULL",
                        logger: s.capabilities.postgres.logger)
                }
                _ = try await Self.purchase(s, customer: "rob2")
                try await receiver.wait(for: 2)
                let second = try #require(receiver.messages.last)
                checks = try await WebhookReceiver.verify([second], secrets: [new, old])
                #expect(checks.first?.signatures == 1, "the old secret is gone")
                #expect(checks.first?.signedBy == [0])
            }
        }
    }

    @Test func tenantsNeverSeeOrReceiveEachOthersEventsOrEndpoints() async throws {
        let receiverA = WebhookReceiver()
        let receiverB = WebhookReceiver()
        try await receiverA.with { urlA in
            try await receiverB.with { urlB in
                try await Storefront.with(slug: "tenant-a") { a in
                    let b = try await Fixtures.tenant(a.capabilities, slug: "tenant-b", bundleId: "com.example.b")
                    func callB(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
                        try await a.server.call(method, params, apiKey: b.apiKey)
                    }
                    let endpointA = try #require(try await a.result("webhooks.create", ["url": urlA])["id"] as? String)
                    let createdB = try await callB("webhooks.create", ["url": urlB])
                    let endpointB = try #require((createdB["result"] as? [String: Any])?["id"] as? String)

                    // B cannot see, change, rotate, test or read deliveries of A's endpoint.
                    let listB = try await callB("webhooks.list")
                    #expect(((listB["result"] as? [String: Any])?["endpoints"] as? [[String: Any]])?.map { $0["id"] as? String } == [endpointB])
                    for (method, params) in [
                        ("webhooks.update", ["id": endpointA, "url": urlB]), ("webhooks.delete", ["id": endpointA]),
                        ("webhooks.rotateSecret", ["id": endpointA]),
                        ("webhooks.test", ["id": endpointA]), ("webhooks.deliveries", ["endpointId": endpointA]),
                        ("webhooks.redeliver", ["since": "2020-01-01T00:00:00Z", "endpointId": endpointA]),
                    ] as [(String, [String: Any])] {
                        let reply = try await callB(method, params)
                        #expect((reply["error"] as? [String: Any])?["code"] as? Int == 1004, "\(method): \(reply)")
                    }
                    // Nor filter on A's app.
                    let foreignApp = try await callB("webhooks.create", ["url": urlB, "bundleId": Storefront.bundleId])
                    #expect(((foreignApp["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "bundleId")

                    // A's events go to A's receiver only, and B's feed stays empty.
                    _ = try await Self.purchase(a, customer: "alice")
                    try await a.processed(1)
                    let eventsA = try #require(try await a.result("events.list")["events"] as? [[String: Any]])
                    try await receiverA.wait(for: eventsA.count)
                    let feedB = try await callB("events.list")
                    #expect(((feedB["result"] as? [String: Any])?["events"] as? [Any])?.isEmpty == true)
                    let deliveriesB = try await callB("webhooks.deliveries")
                    #expect(((deliveriesB["result"] as? [String: Any])?["deliveries"] as? [Any])?.isEmpty == true)
                    try await Task.sleep(for: .milliseconds(500))
                    #expect(receiverB.messages.isEmpty)
                    #expect(((try await a.result("webhooks.list"))["endpoints"] as? [[String: Any]])?.count == 1)
                }
            }
        }
    }

    @Test func badInputIsRefusedNamingTheFieldAndNothingIsWritten() async throws {
        try await TestDatabase.with(webhooks: WebhookSettings()) { capabilities, _ in
            let made = try await Fixtures.tenant(capabilities, slug: "strict", bundleId: "com.example.strict")
            try await TestServer.with(capabilities) { server in
                func field(_ method: String, _ params: [String: Any]) async throws -> (code: Int?, field: String?) {
                    let reply = try await server.call(method, params, apiKey: made.apiKey)
                    let error = reply["error"] as? [String: Any]
                    return (error?["code"] as? Int, (error?["data"] as? [String: Any])?["field"] as? String)
                }
                for url in [
                    "http://hooks.example.com/x", "https://127.0.0.1/hooks", "https://10.1.2.3/hooks", "https://[::1]/hooks", "https://localhost/hooks",
                    "https://169.254.169.254/latest/meta-data", "https://user:pw@example.com/x", "not a url", "ftp://example.com/x",
                ] {
                    let refused = try await field("webhooks.create", ["url": url])
                    #expect(refused.code == -32602 && refused.field == "url", "\(url): \(refused)")
                }
                let unknownType = try await field("webhooks.create", ["url": "https://93.184.215.14/hooks", "eventTypes": ["refund.granted", "refund.maybe"]])
                #expect(unknownType.field == "eventTypes[1]", "\(unknownType)")
                let unknownApp = try await field("webhooks.create", ["url": "https://93.184.215.14/hooks", "bundleId": "com.example.other"])
                #expect(unknownApp.code == 1004 && unknownApp.field == "bundleId")
                let environment = try await field("webhooks.create", ["url": "https://93.184.215.14/hooks", "environment": "Xcode"])
                #expect(environment.field == "environment")
                #expect(
                    ((try await server.call("webhooks.list", [:], apiKey: made.apiKey)["result"] as? [String: Any])?["endpoints"] as? [Any])?.isEmpty == true,
                    "nothing half-written")
                #expect(try await field("webhooks.delete", ["id": "we_nope"]).field == "id")
                #expect(try await field("webhooks.redeliver", [:]).field == "deliveryId")
                #expect(try await field("events.list", ["after": -1]).code == -32602)
                #expect(try await field("events.list", ["limit": 0]).field == "limit")
                #expect(try await field("events.list", ["types": ["nope"]]).field == "types[0]")
            }
        }
    }

    /// The deliveries the SQL writes as events are appended are exactly those `WebhookEndpoint.receives`
    /// says, for every combination of type, app and environment filters and events.
    @Test func theDeliveriesWrittenWithEventsAreThoseTheEndpointFilterSays() async throws {
        try await TestDatabase.with(webhooks: WebhookSettings()) { capabilities, _ in
            let made = try await Fixtures.tenant(capabilities, slug: "filters", bundleId: "com.example.filters", environments: ["Sandbox", "Production"])
            let tenant = made.tenant.tenant
            let webhooks = capabilities.webhooks.allowingPrivateURLs()
            var endpoints: [WebhookEndpoint] = []
            for types in [[], ["account.linked"], ["purchase.created", "refund.granted"]] {
                for bundleId in [nil, "com.example.filters"] {
                    for environment in [nil, "Sandbox", "Production"] {
                        let spec = WebhookEndpointSpec(url: "http://127.0.0.1:9/hook", eventTypes: types, bundleId: bundleId, environment: environment)
                        let made = try await webhooks.create(tenant: tenant, spec, actor: Actor("test"))
                        endpoints.append(try await webhooks.get(tenant: tenant, id: made.id))
                    }
                }
            }
            var events: [NewEvent] = []
            for type in [Event.Kind.accountLinked, .purchaseCreated] {
                for appId in [made.appId, nil] {
                    for environment in [AppStoreEnvironment.sandbox, .production, nil] {
                        events.append(try NewEvent(type, appId: appId, environment: environment, customer: nil, data: ["n": events.count]))
                    }
                }
            }
            try await capabilities.persistence.inTenant(tenant) { try await $0.events.append(events) }
            for endpoint in endpoints {
                let delivered = try await capabilities.persistence.inTenant(tenant, .read) {
                    try await $0.webhookDeliveries.list(endpointId: endpoint.id, status: nil, before: nil, limit: 100)
                }
                let expected = events.filter { endpoint.receives($0.type, appId: $0.appId, environment: $0.environment) }.map(\.id)
                #expect(
                    Set(delivered.map(\.eventId)) == Set(expected),
                    "\(endpoint.eventTypes) \(String(describing: endpoint.appId)) \(String(describing: endpoint.environment))")
            }
        }
    }

    /// A delivery that fails for its whole retry window is dead-lettered and its endpoint marked failing;
    /// `webhooks.redeliver` with `since` sends it again, and its success marks the endpoint healthy.
    @Test func aDeliveryFailingForItsWholeWindowIsDeadLetteredThenRedelivered() async throws {
        let receiver = WebhookReceiver(statuses: Array(repeating: .serviceUnavailable, count: 100))
        let settings = {
            var settings = TestDatabase.webhooks
            settings.delivery.retryWindow = .seconds(2)
            return settings
        }()
        try await receiver.with { url in
            try await TestDatabase.with(webhooks: settings) { capabilities, _ in
                let made = try await Fixtures.tenant(capabilities, slug: "dead", bundleId: "com.example.dead")
                try await TestServer.with(capabilities) { server in
                    func call(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
                        try #require(try await server.call(method, params, apiKey: made.apiKey)["result"] as? [String: Any], "\(method)")
                    }
                    let endpointId = try #require(try await call("webhooks.create", ["url": url])["id"] as? String)
                    let event = try NewEvent(.accountLinked, appId: made.appId, environment: nil, customer: nil, data: ["customerId": "dee"])
                    try await capabilities.persistence.inTenant(made.tenant.tenant) { try await $0.events.append([event]) }

                    try await eventually("dead-lettered") {
                        ((try await call("webhooks.deliveries", ["status": "failed"]))["deliveries"] as? [Any])?.count == 1
                    }
                    let failing = try #require((try await call("webhooks.list")["endpoints"] as? [[String: Any]])?.first)
                    #expect(failing["status"] as? String == "failing")
                    let attempts = receiver.messages.count
                    #expect(attempts >= 1)
                    receiver.answerOK()

                    let redelivered = try await call("webhooks.redeliver", ["since": (Date() - 60).formatted(.iso8601), "endpointId": endpointId])
                    #expect(redelivered["redelivered"] as? Int == 1)
                    try await eventually("delivered after the redelivery") {
                        ((try await call("webhooks.deliveries", ["status": "delivered"]))["deliveries"] as? [Any])?.count == 1
                    }
                    #expect(receiver.messages.last?.id == PrefixedID.encode("evt_", event.id))
                    let healthy = try #require((try await call("webhooks.list")["endpoints"] as? [[String: Any]])?.first)
                    #expect(healthy["status"] as? String == "active")
                }
            }
        }
    }

    /// A delivery in flight when its Storegate process is killed is sent again by another process.
    @Test func killingStoregateMidDeliveryLosesNoEvent() async throws {
        let receiver = WebhookReceiver(hangFirst: true)
        let key = MasterKey.generate()
        try await receiver.with { url in
            try await TestDatabase.with(vault: TestDatabase.makeVault([key])) { capabilities, databaseURL in
                let made = try await Fixtures.tenant(capabilities, slug: "crash", bundleId: "com.example.crash")
                let endpoint = try await capabilities.webhooks.create(tenant: made.tenant.tenant, WebhookEndpointSpec(url: url), actor: Actor("test"))
                let event = try NewEvent(.accountLinked, appId: made.appId, environment: nil, customer: nil, data: ["customerId": "kim"])
                try await capabilities.persistence.inTenant(made.tenant.tenant) { try await $0.events.append([event]) }

                let env = [
                    "STOREGATE_DATABASE_URL": databaseURL, "STOREGATE_MASTER_KEY": key, "STOREGATE_LOG_LEVEL": "error", "STOREGATE_JOB_LEASE_SECONDS": "2",
                    "PATH": "/usr/bin:/bin",
                ]
                func serve(port: Int) throws -> Subprocess {
                    try Subprocess(CLITests.binary, ["serve", "--port", String(port), "--allow-private-webhook-urls"], environment: env)
                }
                let first = try serve(port: try FreePort.find())
                defer { first.signal(SIGKILL) }
                try await receiver.wait(for: 1, timeout: .seconds(20))
                first.signal(SIGKILL)
                _ = await first.waitForExit(upTo: .seconds(5))

                let port = try FreePort.find()
                let second = try serve(port: port)
                defer { second.signal(SIGKILL) }
                try await receiver.wait(for: 2, timeout: .seconds(20))
                let messages = receiver.messages
                #expect(messages.map(\.id) == Array(repeating: PrefixedID.encode("evt_", event.id), count: 2), "the same event, sent again")
                let checks = try await WebhookReceiver.verify(messages, secrets: [try #require(endpoint.secret)])
                #expect(checks.allSatisfy { $0.signedBy == [0] })
                try await eventually("the delivery recorded as delivered") {
                    try await capabilities.webhooks.deliveries(tenant: made.tenant.tenant, endpointId: nil, status: "delivered", before: nil, limit: 10).count
                        == 1
                }
                // The second process counted the delivery in its metrics.
                let client = HTTPClient(eventLoopGroupProvider: .singleton)
                defer { _ = client.shutdown() }
                let response = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/metrics"), timeout: .seconds(30))
                let metrics = String(buffer: try await response.body.collect(upTo: 1 << 20))
                #expect(metrics.contains(#"storegate_webhook_deliveries_total{outcome="delivered"} 1"#), "\(metrics)")
                #expect(metrics.contains("storegate_webhook_event_age_seconds"))
            }
        }
    }
}
