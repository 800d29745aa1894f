import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import Testing

/// What support staff do for a customer: find them by the order ID on their App Store invoice.
@Suite(.serialized) struct SupportDeskTests {
    static func errorData(_ reply: [String: Any]) -> (code: Int?, field: String?) {
        let error = reply["error"] as? [String: Any]
        return (error?["code"] as? Int, (error?["data"] as? [String: Any])?["field"] as? String)
    }

    /// An in-app purchase Storegate never heard of: its order ID looked up for a customer keeps the order
    /// with its transaction, linked to the customer, and the customer is found by the order ID later.
    @Test func anOrderIdLookedUpIsKeptAndResolvesToItsCustomer() async throws {
        try await Storefront.with(slug: "orders", sendNotifications: false) { s in
            let coins = await s.store.purchase(
                SimulatorStore.Purchase(customer: "dee-device", bundleId: Storefront.bundleId, productId: "com.example.coins", type: .consumable))
            let orderId = try #require(await s.store.orderId(of: coins.transactionId ?? ""))
            let unknown = try await s.call("accounts.resolve", ["orderId": orderId])
            #expect(Self.errorData(unknown).field == "orderId", "not looked up yet")

            let order = try await s.result("refunds.lookupOrder", ["bundleId": Storefront.bundleId, "orderId": orderId, "customerId": "dee"])
            #expect(order["status"] as? String == "valid")
            #expect(order["customerId"] as? String == "dee")
            #expect((order["transactions"] as? [[String: Any]])?.map { $0["transactionId"] as? String } == [coins.transactionId])

            let resolved = try await s.result("accounts.resolve", ["orderId": orderId])
            #expect(resolved["customerId"] as? String == "dee")
            let inApp = try await s.result("accounts.resolve", ["orderId": orderId, "bundleId": Storefront.bundleId])
            #expect(inApp["customerId"] as? String == "dee")
            let byTransaction = try await s.result("accounts.resolve", ["transactionId": coins.transactionId ?? "", "bundleId": Storefront.bundleId])
            #expect(byTransaction["customerId"] as? String == "dee", "the transaction itself is stored and linked")

            // A purchase made with a customer's appAccountToken belongs to that customer, whoever asks.
            let eve = try await s.result("accounts.ensure", ["customerId": "eve"])
            let token = try #require(UUID(uuidString: eve["appAccountToken"] as? String ?? ""))
            let lifetime = await s.store.purchase(
                SimulatorStore.Purchase(
                    customer: "eve-device", bundleId: Storefront.bundleId, productId: "com.example.lifetime", type: .nonConsumable, appAccountToken: token))
            let eveOrder = try #require(await s.store.orderId(of: lifetime.transactionId ?? ""))
            let found = try await s.result("refunds.lookupOrder", ["bundleId": Storefront.bundleId, "orderId": eveOrder, "customerId": "dee"])
            #expect(found["customerId"] as? String == "eve", "Apple's data names the owner")
            #expect(try await s.result("accounts.resolve", ["orderId": eveOrder])["customerId"] as? String == "eve")

            // An order Apple does not know changes nothing; bad input is refused, naming the field.
            let invalid = try await s.result("refunds.lookupOrder", ["bundleId": Storefront.bundleId, "orderId": "NOSUCHORDER", "customerId": "fay"])
            #expect(invalid["status"] as? String == "invalid")
            #expect(invalid["customerId"] == nil || invalid["customerId"] is NSNull)
            let fay = try await s.call("entitlements.list", ["customerId": "fay"])
            #expect(Self.errorData(fay).field == "customerId", "no customer was made for an invalid order")
            #expect(Self.errorData(try await s.call("refunds.lookupOrder", ["bundleId": Storefront.bundleId, "orderId": "MK-1"])) == (-32602, "orderId"))
            #expect(Self.errorData(try await s.call("accounts.resolve", ["orderId": "MK 1"])) == (-32602, "orderId"))
            #expect(
                Self.errorData(try await s.call("accounts.resolve", ["orderId": orderId, "transactionId": "1", "bundleId": Storefront.bundleId])).code == -32602
            )
        }
    }

    static func grantIds(_ entitlements: [String: Any]) -> [String] {
        (entitlements["grants"] as? [[String: Any]] ?? []).compactMap { $0["grantId"] as? String }
    }

    /// Compensation: a grant counts in entitlements.list until it expires or is revoked; each is evented
    /// and audited with who did it; bad input names its field and writes nothing.
    @Test func aGrantCountsUntilItExpiresOrIsRevoked() async throws {
        try await Storefront.with(slug: "grants", sendNotifications: false) { s in
            _ = try await s.result("accounts.ensure", ["customerId": "gus"])
            let premium = try await s.result(
                "entitlements.grant", ["customerId": "gus", "entitlement": "premium", "days": 7, "reason": "Outage on 2026-11-20"])
            let premiumId = try #require(premium["grantId"] as? String)
            #expect(premium["entitlement"] as? String == "premium")
            #expect(premium["grantedBy"] as? String == s.tenant.actor.description)
            let inAMonth = ISO8601DateFormatter().string(from: Date().addingTimeInterval(30 * 86_400))
            let coins = try await s.result(
                "entitlements.grant",
                ["customerId": "gus", "bundleId": Storefront.bundleId, "productId": "com.example.pro", "expiresDate": inAMonth, "reason": "a refund owed"])
            let coinsId = try #require(coins["grantId"] as? String)
            #expect(coins["bundleId"] as? String == Storefront.bundleId)
            #expect(Set(Self.grantIds(try await s.result("entitlements.list", ["customerId": "gus"]))) == [premiumId, coinsId])

            // One that ends in a moment counts now, and no longer once its time has passed (the cache holds it).
            let brief = try await s.capabilities.subscriptions.grant(
                tenant: s.tenant.tenant, customerId: "gus", bundleId: nil, productId: nil, entitlement: "trial-extension", days: 1, expiresDate: nil,
                reason: "brief", actor: Actor("test"), now: Date().addingTimeInterval(-86_400 + 10))
            #expect(Self.grantIds(try await s.result("entitlements.list", ["customerId": "gus"])).contains(brief.grantId))
            try await eventually("the brief grant expired") {
                !Self.grantIds(try await s.result("entitlements.list", ["customerId": "gus"])).contains(brief.grantId)
            }

            let revoked = try await s.result("entitlements.revokeGrant", ["customerId": "gus", "grantId": premiumId, "reason": "granted by mistake"])
            #expect(revoked["revokedBy"] as? String == s.tenant.actor.description)
            #expect(Self.grantIds(try await s.result("entitlements.list", ["customerId": "gus"])) == [coinsId])
            let again = try await s.result("entitlements.revokeGrant", ["customerId": "gus", "grantId": premiumId])
            #expect(again["revokeReason"] as? String == "granted by mistake", "revoked once; the second call changes nothing")
            let all = try await s.result("entitlements.grants", ["customerId": "gus"])
            #expect((all["grants"] as? [Any])?.count == 3, "ended grants too")

            let events = try await s.result("events.list", ["types": ["entitlement.granted", "entitlement.revoked"]])
            let kinds = (events["events"] as? [[String: Any]] ?? []).map { ($0["type"] as? String ?? "", $0["customerId"] as? String) }
            #expect(kinds.map(\.0) == ["entitlement.granted", "entitlement.granted", "entitlement.granted", "entitlement.revoked"])
            #expect(kinds.allSatisfy { $0.1 == "gus" })
            let audit = try await s.capabilities.persistence.inTenant(s.tenant.tenant, .read) { try await $0.auditLog() }
            #expect(audit.filter { $0.action == "entitlement.grant" }.count == 3)
            #expect(audit.contains { $0.action == "entitlement.revokeGrant" && $0.actor == s.tenant.actor.description })

            // Bad input: refused, naming the field; nothing written.
            let bad: [([String: Any], String)] = [
                (["customerId": "gus", "entitlement": "premium", "days": 7, "expiresDate": inAMonth, "reason": "r"], "days"),
                (["customerId": "gus", "entitlement": "premium", "expiresDate": "2099-01-01T00:00:00Z", "reason": "r"], "expiresDate"),
                (["customerId": "gus", "entitlement": "premium", "days": 0, "reason": "r"], "days"),
                (["customerId": "gus", "entitlement": "premium", "days": 400, "reason": "r"], "days"),
                (["customerId": "gus", "entitlement": "premium", "expiresDate": "2020-01-01T00:00:00Z", "reason": "r"], "expiresDate"),
                (["customerId": "gus", "productId": "com.example.pro", "days": 7, "reason": "r"], "bundleId"),
                (["customerId": "gus", "days": 7, "reason": "r"], "productId"),
                (["customerId": "gus", "entitlement": "pre mium", "days": 7, "reason": "r"], "entitlement"),
                (["customerId": "gus", "entitlement": "premium", "days": 7, "reason": ""], "reason"),
                (["customerId": "nobody", "entitlement": "premium", "days": 7, "reason": "r"], "customerId"),
            ]
            for (params, field) in bad {
                #expect(Self.errorData(try await s.call("entitlements.grant", params)).field == field, "\(params)")
            }
            #expect(
                Self.errorData(try await s.call("entitlements.revokeGrant", ["customerId": "gus", "grantId": "grt_" + String(repeating: "a", count: 26)])).field
                    == "grantId")
            #expect(Self.errorData(try await s.call("entitlements.revokeGrant", ["customerId": "gus", "grantId": "grt_1"])).field == "grantId")
            #expect((try await s.result("entitlements.grants", ["customerId": "gus"])["grants"] as? [Any])?.count == 3)
        }
    }

    /// One customer's story from events.list with customerId: their purchase, the renewal extension and the
    /// grant support gave, the refund with what to revoke; in order, paged, and nobody else's.
    @Test func aCustomersTimelineIsTheirStoryInOrder() async throws {
        try await Storefront.with(slug: "timeline") { s in
            func token(_ customerId: String) async throws -> UUID {
                let token = try await s.result("accounts.ensure", ["customerId": customerId])["appAccountToken"] as? String
                return try #require(token.flatMap(UUID.init(uuidString:)))
            }
            let hal = try await token("hal")
            let bought = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("hal-device", token: hal))
            _ = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("ivy-device", token: try await token("ivy")))
            try await s.processed(2)
            _ = try await s.result(
                "subscriptions.extendRenewalDate",
                ["bundleId": Storefront.bundleId, "originalTransactionId": bought.originalTransactionId ?? "", "extendByDays": 7, "extendReasonCode": 3])
            _ = try await s.result("entitlements.grant", ["customerId": "hal", "entitlement": "premium", "days": 7, "reason": "the outage"])
            var coins = SimulatorStore.Purchase(customer: "hal-device", bundleId: Storefront.bundleId, productId: "com.example.coins", type: .consumable)
            coins.appAccountToken = hal
            let coin = try await s.simulator.purchase(coins)
            try await eventually("the coins bought") {
                (try await s.result("entitlements.list", ["customerId": "hal"])["purchases"] as? [Any])?.count == 1
            }
            try await s.simulator.refund(transactionId: coin.transactionId ?? "")

            func timeline() async throws -> [[String: Any]] {
                try await s.result("events.list", ["customerId": "hal"])["events"] as? [[String: Any]] ?? []
            }
            try await eventually("the refund in hal's timeline") { try await timeline().contains { $0["type"] as? String == "refund.granted" } }
            let events = try await timeline()
            let types = events.compactMap { $0["type"] as? String }
            #expect(events.allSatisfy { $0["customerId"] as? String == "hal" }, "\(types)")
            let sequences = events.compactMap { $0["sequence"] as? Int }
            #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
            let order = ["purchase.created", "subscription.renewalExtended", "entitlement.granted", "refund.granted"].map { type in
                types.firstIndex(of: type) ?? -1
            }
            #expect(order == order.sorted() && !order.contains(-1), "\(types)")
            let extended = events.first { $0["type"] as? String == "subscription.renewalExtended" }?["data"] as? [String: Any]
            #expect(extended?["requestedBy"] as? String == s.tenant.actor.description)
            #expect(extended?["extendReasonCode"] as? Int == 3)
            let refund = events.first { $0["type"] as? String == "refund.granted" }?["data"] as? [String: Any]
            #expect((refund?["revoke"] as? [String: Any])?["action"] as? String != nil, "what to revoke, with the refund")

            // Paged: two at a time, from where the last page ended.
            var paged: [Int] = []
            var after = 0
            while true {
                let page = try await s.result("events.list", ["customerId": "hal", "after": after, "limit": 2])
                let got = (page["events"] as? [[String: Any]] ?? []).compactMap { $0["sequence"] as? Int }
                if got.isEmpty { break }
                paged += got
                after = page["next"] as? Int ?? 0
            }
            #expect(paged == sequences)
            #expect(Self.errorData(try await s.call("events.list", ["customerId": "nobody"])).field == "customerId")
        }
    }

    /// Sweeps every second and checks a renewal a second after its expiry, for the tests below.
    static let promptly = ReconciliationSettings(sweepEvery: .seconds(1), firstSweep: .seconds(3600), renewalCheckAfter: .seconds(1))

    /// A notification Apple failed to deliver (Storegate was unreachable) is found by the scheduled sweep
    /// of Apple's notification history and applied, with no call; the sweep's counts are kept.
    @Test func aMissedNotificationIsRecoveredByTheScheduledSweep() async throws {
        try await Storefront.with(slug: "sweep", reconciliation: Self.promptly) { s in
            let jo = try await s.result("accounts.ensure", ["customerId": "jo"])
            let token = try #require(UUID(uuidString: jo["appAccountToken"] as? String ?? ""))
            await s.store.setNotificationURL(bundleId: Storefront.bundleId, url: "http://127.0.0.1:9/unreachable")
            let bought = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("jo-device", token: token))
            try await eventually("Apple's delivery failed") {
                await s.store.sentNotifications(bundleId: Storefront.bundleId).contains { !$0.attempts.isEmpty }
            }
            try await eventually("the sweep applied it") {
                let subscriptions = try await s.result("subscriptions.status", ["customerId": "jo"])["subscriptions"] as? [[String: Any]] ?? []
                return subscriptions.first?["originalTransactionId"] as? String == bought.originalTransactionId
            }
            let history = await s.store.received.filter { $0.path == "/inApps/v1/notifications/history" }
            #expect(!history.isEmpty)
            #expect(history.allSatisfy { String(decoding: $0.body, as: UTF8.self).contains("\"onlyFailures\":true") })
            let sweeps = try await s.capabilities.persistence.inTenant(s.tenant.tenant, .read) { try await $0.sweeps.list() }
            #expect(sweeps.first?.applied == 1 && sweeps.first?.failed == 0, "\(sweeps)")
            let stored = try await s.result("notifications.list", ["bundleId": Storefront.bundleId])["notifications"] as? [Any]
            #expect(stored?.count == 1, "stored once, however many sweeps saw it")
        }
    }

    /// A renewal whose notification never came: a second after the expiry Storegate asks Apple, and the
    /// customer keeps access with the renewed expiry.
    @Test func aLateRenewalIsCaughtByThePostExpiryCheck() async throws {
        try await Storefront.with(slug: "late-renewal", reconciliation: Self.promptly) { s in
            let kit = try await s.result("accounts.ensure", ["customerId": "kit"])
            var purchase = AppStoreServerAPIClientTests.subscription(
                "kit-device", token: try #require(UUID(uuidString: kit["appAccountToken"] as? String ?? "")))
            // The check must find the renewal made: the worker is held from the purchase's applying until
            // Apple has renewed it. The 10 s period covers applying the purchase on a busy machine (with
            // 2 s and nothing held, a check that ran first found nothing, and nothing asked again).
            purchase.period = 10
            let bought = try await s.simulator.purchase(purchase)
            try await s.processed(1)
            s.capabilities.worker.pause(true)
            await s.store.setNotificationURL(bundleId: Storefront.bundleId, url: nil)
            let renewed = try await s.simulator.renew(originalTransactionId: try #require(bought.originalTransactionId))
            s.capabilities.worker.pause(false)
            let renewedExpiry = try #require(renewed.expiresDate?.date)
            try await eventually("the renewal found after the expiry") {
                let subscription = (try await s.result("entitlements.list", ["customerId": "kit"])["subscriptions"] as? [[String: Any]])?.first
                let expires = (subscription?["expiresDate"] as? String).flatMap { try? Date($0, strategy: .iso8601) }
                return expires.map { abs($0.timeIntervalSince(renewedExpiry)) < 1 } ?? false
            }
            #expect(await s.store.received.contains { $0.path == "/inApps/v1/subscriptions/\(bought.originalTransactionId ?? "")" })
            #expect(try await s.processedCount() == 1, "no notification brought it")
        }
    }

    /// A refund whose REFUND notification never arrived (Storegate unreachable) is found by `refunds.history`
    /// and becomes one outcome and one event; asking again, and the notification recovered later from
    /// Apple's history, add nothing; a refund that was notified is not recorded again by the history.
    @Test func aRefundSeenOnlyInRefundHistoryBecomesOneOutcomeAndOneEvent() async throws {
        try await Storefront.with(slug: "refund-history") { s in
            let token = try #require(UUID(uuidString: try await s.result("accounts.ensure", ["customerId": "ann"])["appAccountToken"] as? String ?? ""))
            func coins() async throws -> String {
                var purchase = SimulatorStore.Purchase(customer: "ann-device", bundleId: Storefront.bundleId, productId: "com.example.coins", type: .consumable)
                purchase.appAccountToken = token
                return try #require(try await s.simulator.purchase(purchase).transactionId)
            }
            func outcomes() async throws -> [[String: Any]] {
                try await s.result("refunds.outcomes", ["customerId": "ann"])["outcomes"] as? [[String: Any]] ?? []
            }
            func refundEvents() async throws -> [[String: Any]] {
                try await s.result("events.list", ["customerId": "ann", "types": ["refund.granted"]])["events"] as? [[String: Any]] ?? []
            }
            let notified = try await coins()
            let missed = try await coins()
            try await s.processed(2)
            _ = try await s.simulator.refund(transactionId: notified)
            try await s.processed(3)
            await s.store.setNotificationURL(bundleId: Storefront.bundleId, url: "http://127.0.0.1:9/unreachable")
            _ = try await s.simulator.refund(transactionId: missed)
            #expect(try await outcomes().count == 1, "only the notified refund is known")

            for _ in 0..<2 {
                let history = try await s.result("refunds.history", ["bundleId": Storefront.bundleId, "transactionId": notified])
                let ids = (history["transactions"] as? [[String: Any]])?.compactMap { $0["transactionId"] as? String }
                #expect(Set(ids ?? []) == [notified, missed])
            }
            let found = try await outcomes()
            #expect(found.count == 2, "one outcome per refund, however often the history is read")
            let fromHistory = try #require(found.first { $0["transactionId"] as? String == missed })
            #expect(fromHistory["source"] as? String == "refundHistory")
            #expect(fromHistory["outcome"] as? String == "REFUND" && fromHistory["customerId"] as? String == "ann")
            #expect(fromHistory["revocationDate"] != nil)
            #expect((fromHistory["revoke"] as? [String: Any])?["action"] as? String == "revokeQuantity")
            #expect(found.first { $0["transactionId"] as? String == notified }?["source"] as? String == "notification")
            let events = try await refundEvents()
            #expect(events.count == 2)
            let event = try #require(events.first { ($0["data"] as? [String: Any])?["transactionId"] as? String == missed }?["data"] as? [String: Any])
            #expect(event["source"] as? String == "refundHistory" && event["notificationUUID"] == nil)

            // The missed notification, recovered from Apple's notification history (as a sweep would), is stored
            // and applied: the refund it brings is already recorded.
            await s.store.setNotificationURL(bundleId: Storefront.bundleId, url: s.webhookURL)
            let backfill = try await s.result(
                "notifications.backfill", ["bundleId": Storefront.bundleId, "startDate": (Date() - 3600).formatted(.iso8601)])
            #expect(backfill["stored"] as? Int == 1)
            try await s.processed(4)
            #expect(try await outcomes().count == 2)
            #expect(try await refundEvents().count == 2)
        }
    }

    /// A tenant's manifest sets its own reconciliation: its apps are swept though the server sweeps none,
    /// at its interval; another tenant's are not; bad values are refused naming the field; leaving the
    /// settings out returns the tenant to the server's.
    @Test func aTenantsManifestSetsItsOwnReconciliation() async throws {
        try await TestDatabase.with { capabilities, _ in
            let applier = ManifestApplier(capabilities: capabilities)
            func apply(_ reconciliation: String, slug: String = "reconciled") async throws -> ApplyResult {
                let yaml = """
                    slug: \(slug)
                    name: Reconciled
                    apps:
                      - bundleId: com.example.\(slug)
                        environments: [Sandbox]
                    \(reconciliation)
                    """
                return try await applier.apply(
                    try TenantManifest.parse(yaml: yaml), baseDirectory: URL(fileURLWithPath: "/nonexistent"), environment: [:], actor: Actor("test"))
            }
            _ = try await apply("", slug: "server-default")
            #expect(await capabilities.worker.scheduleSweeps() == 0, "the server sweeps no one (tests' setting)")
            let applied = try await apply("reconciliation: {sweepMinutes: 30, renewalCheckMinutes: 2}")
            #expect(applied.tenant.reconciliation == Tenant.Reconciliation(sweepMinutes: 30, renewalCheckMinutes: 2))
            #expect(applied.changes.contains("tenant reconciled: reconciliation sweeps every 30 min, renewal checks 2 min after expiry"))
            #expect(try await apply("reconciliation: {sweepMinutes: 30, renewalCheckMinutes: 2}").changes.isEmpty, "applied again: no change")
            let tenant = try await capabilities.tenants.get(slug: "reconciled")
            #expect(tenant.reconciliation.sweepMinutes == 30)
            #expect(TestDatabase.reconciliation.sweepEvery(for: tenant) == .seconds(1800))
            #expect(TestDatabase.reconciliation.renewalCheckAfter(for: tenant) == .seconds(120))
            #expect(await capabilities.worker.scheduleSweeps() == 1, "its one app in its one environment, and no other tenant's")

            for (value, field) in [
                ("{sweepMinutes: -1}", "reconciliation.sweepMinutes"), ("{renewalCheckMinutes: 0}", "reconciliation.renewalCheckMinutes"),
                ("{sweepEvery: 3}", "reconciliation.sweepEvery"),
            ] {
                await #expect {
                    _ = try await apply("reconciliation: \(value)")
                } throws: { error in
                    guard case StoregateError.invalid(let named, _) = error else { return false }
                    return named == field
                }
            }
            #expect(try await capabilities.tenants.get(slug: "reconciled").reconciliation.sweepMinutes == 30, "nothing half-written")
            #expect(try await apply("reconciliation: {sweepMinutes: 0}").tenant.reconciliation.sweepMinutes == 0)
            #expect(TestDatabase.reconciliation.sweepEvery(for: try await capabilities.tenants.get(slug: "reconciled")) == nil, "0: never")
            #expect(try await apply("").tenant.reconciliation == Tenant.Reconciliation(), "left out: the server's")
        }
    }
}
