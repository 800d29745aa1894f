import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Storegate
import Synchronization
import Testing

/// Lifecycle events driven through the App Store simulator's notifications, read from `events.list`: each
/// type with the Apple notification (and subtype) that implies it, its data, money and entitlements.
@Suite struct LifecycleEventTests {
    static let bundleId = Storefront.bundleId

    static let types = LifecycleEvents.kinds.map(\.rawValue)

    static func product(_ id: String, _ type: String, level: Int? = nil) -> [String: Any] {
        var product: [String: Any] = ["bundleId": bundleId, "productId": id, "type": type, "displayName": id]
        if type == "Auto-Renewable Subscription" { product["subscriptionGroup"] = "group.premium" }
        if let level { product["level"] = level }
        return product
    }

    static func catalog(commission: String = "standard") -> [String: Any] {
        [
            "commission": commission, "taxRates": ["DEU": 1900],
            "products": [
                product("com.example.monthly", "Auto-Renewable Subscription", level: 1), product("com.example.basic", "Auto-Renewable Subscription", level: 2),
                product("com.example.lifetime", "Non-Consumable"), product("com.example.coins", "Consumable"),
            ],
            "entitlements": [
                ["name": "pro", "description": "Everything", "productIds": ["com.example.monthly", "com.example.lifetime"]],
                ["name": "basic", "description": "The basics", "productIds": ["com.example.monthly", "com.example.basic"]],
            ],
        ]
    }

    /// Reads the lifecycle events after the last ones read, waiting for as many as expected.
    final class Feed: @unchecked Sendable {
        let s: Storefront
        var after = 0

        init(_ s: Storefront) { self.s = s }

        @discardableResult
        func next(_ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> [[String: Any]] {
            var events: [[String: Any]] = []
            try await s.eventually("lifecycle events \(expected)", sourceLocation: sourceLocation) {
                let page = try await s.result("events.list", ["after": after, "types": LifecycleEventTests.types, "limit": 100])
                events = page["events"] as? [[String: Any]] ?? []
                return events.count >= expected.count
            }
            #expect(events.map { $0["type"] as? String ?? "" } == expected, sourceLocation: sourceLocation)
            after = events.last?["sequence"] as? Int ?? after
            // docs/API.md's samples are these events: STOREGATE_LIFECYCLE_SAMPLES=FILE appends each as a JSON line.
            if let path = ProcessInfo.processInfo.environment["STOREGATE_LIFECYCLE_SAMPLES"], let file = FileHandle(forWritingAtPath: path) {
                for event in events {
                    file.seekToEndOfFile()
                    file.write(try JSONSerialization.data(withJSONObject: event) + Data("\n".utf8))
                }
                try file.close()
            }
            return events.map { event in
                var data = event["data"] as? [String: Any] ?? [:]
                data["customerId"] = event["customerId"]
                return data
            }
        }
    }

    static func money(_ data: [String: Any]) -> [String: Any] { data["money"] as? [String: Any] ?? [:] }

    /// A customer with a catalog, whose purchases carry their appAccountToken.
    static func customer(_ s: Storefront, _ id: String, commission: String = "standard") async throws -> UUID {
        _ = try await s.result("catalog.set", catalog(commission: commission))
        let ensured = try await s.result("accounts.ensure", ["customerId": id])
        return try #require((ensured["appAccountToken"] as? String).flatMap(UUID.init(uuidString:)))
    }

    static func subscription(_ device: String, token: UUID, product: String = "com.example.monthly") -> SimulatorStore.Purchase {
        var purchase = SimulatorStore.Purchase(
            customer: device, bundleId: bundleId, productId: product, type: .autoRenewableSubscription, appAccountToken: token)
        purchase.subscriptionGroupIdentifier = "group.premium"
        return purchase
    }

    @Test func aTrialConvertsRenewsFailsRecoversAndEnds() async throws {
        try await Storefront.with(slug: "lifecycle-trial") { s in
            let token = try await Self.customer(s, "ana")
            let feed = Feed(s)
            var trial = Self.subscription("ana-device", token: token)
            trial.offerType = .introductoryOffer
            trial.offerDiscountType = .freeTrial
            trial.offerPeriod = "P1W"
            let original = try #require(try await s.simulator.purchase(trial).originalTransactionId)
            // SUBSCRIBED / INITIAL_BUY with a free introductory offer.
            let started = try await feed.next(["subscription.trialStarted"])[0]
            #expect(started["customerId"] as? String == "ana")
            #expect(started["periodType"] as? String == "trial")
            #expect(started["entitlements"] as? [String] == ["pro", "basic"])
            #expect(started["storefront"] as? String == "USA")
            #expect((started["offer"] as? [String: Any])?["discountType"] as? String == "FREE_TRIAL")
            #expect((started["offer"] as? [String: Any])?["period"] as? String == "P1W")
            #expect(Self.money(started)["price"] as? Int == 0)

            // DID_RENEW after the trial: the first paid period.
            try await s.simulator.renew(originalTransactionId: original)
            let converted = try await feed.next(["subscription.trialConverted"])[0]
            #expect(converted["periodType"] as? String == "normal")
            let money = Self.money(converted)
            #expect(money["price"] as? Int == 990)
            #expect(money["currency"] as? String == "USD")
            #expect(money["commissionPercent"] as? Int == 30)
            #expect(money["commissionRule"] as? String == "standard")
            #expect(money["estimatedProceeds"] as? Int == 693)
            #expect(money["taxBasisPoints"] == nil, "no tax listed for USA")

            // DID_CHANGE_RENEWAL_STATUS off and on.
            try await s.simulator.setAutoRenew(originalTransactionId: original, enabled: false)
            try await feed.next(["subscription.renewalCancelled"])
            try await s.simulator.setAutoRenew(originalTransactionId: original, enabled: true)
            try await feed.next(["subscription.renewalEnabled"])

            // PRICE_INCREASE / PENDING, then ACCEPTED; the next DID_RENEW charges the new price.
            try await s.simulator.increasePrice(originalTransactionId: original, to: 1290, accepted: false)
            try await feed.next(["subscription.priceIncreasePending"])
            try await s.simulator.increasePrice(originalTransactionId: original, to: 1290, accepted: true)
            try await feed.next(["subscription.priceIncreaseConsented"])
            try await s.simulator.renew(originalTransactionId: original)
            let renewed = try await feed.next(["subscription.renewed"])[0]
            #expect(Self.money(renewed)["price"] as? Int == 1290)

            // DID_FAIL_TO_RENEW / GRACE_PERIOD, GRACE_PERIOD_EXPIRED, DID_RENEW / BILLING_RECOVERY.
            try await s.simulator.failRenewal(originalTransactionId: original, gracePeriod: 6 * 86_400)
            let failed = try await feed.next(["subscription.billingIssue", "subscription.gracePeriodEntered"])
            #expect(failed.allSatisfy { $0["entitlements"] as? [String] == ["pro", "basic"] })
            try await s.simulator.expireGracePeriod(originalTransactionId: original)
            try await feed.next(["subscription.gracePeriodEnded"])
            try await s.simulator.renew(originalTransactionId: original)
            let recovered = try await feed.next(["subscription.billingRecovered"])[0]
            #expect(Self.money(recovered)["price"] as? Int == 1290)
            // DID_FAIL_TO_RENEW without a grace period, recovered.
            try await s.simulator.failRenewal(originalTransactionId: original)
            try await feed.next(["subscription.billingIssue"])
            try await s.simulator.renew(originalTransactionId: original)
            try await feed.next(["subscription.billingRecovered"])

            // Turned off, then EXPIRED / VOLUNTARY.
            try await s.simulator.setAutoRenew(originalTransactionId: original, enabled: false)
            try await feed.next(["subscription.renewalCancelled"])
            try await s.simulator.expire(originalTransactionId: original)
            let expired = try await feed.next(["subscription.expired"])[0]
            #expect(expired["reason"] as? String == "voluntary")

            // SUBSCRIBED / RESUBSCRIBE, then EXPIRED for each of Apple's other reasons.
            try await s.simulator.resubscribe(originalTransactionId: original)
            let back = try await feed.next(["subscription.resubscribed"])[0]
            #expect(Self.money(back)["price"] as? Int == 1290)
            try await s.simulator.expire(originalTransactionId: original, because: .billingError)
            let billing = try await feed.next(["subscription.billingIssue", "subscription.expired"])
            #expect(billing[0]["implied"] as? Bool == true, "no DID_FAIL_TO_RENEW came: the expiry for billing implies it")
            #expect(billing[1]["reason"] as? String == "billingError")
            try await s.simulator.resubscribe(originalTransactionId: original, offerType: .winBackOffer, offerIdentifier: "COMEBACK")
            let winBack = try await feed.next(["subscription.offerStarted"])[0]
            #expect(winBack["periodType"] as? String == "winBack")
            #expect((winBack["offer"] as? [String: Any])?["identifier"] as? String == "COMEBACK")
            try await s.simulator.expire(originalTransactionId: original, because: .customerDidNotConsentToPriceIncrease)
            let refused = try await feed.next(["subscription.priceIncreaseRefused", "subscription.expired"])
            #expect(refused[1]["reason"] as? String == "priceIncrease")
            try await s.simulator.resubscribe(originalTransactionId: original)
            try await feed.next(["subscription.resubscribed"])
            try await s.simulator.expire(originalTransactionId: original, because: .productNotAvailable)
            #expect(try await feed.next(["subscription.expired"])[0]["reason"] as? String == "productUnavailable")
        }
    }

    @Test func productChangesOffersExtensionsAndRefunds() async throws {
        try await Storefront.with(slug: "lifecycle-change") { s in
            let token = try await Self.customer(s, "ben")
            let feed = Feed(s)
            var bought = Self.subscription("ben-device", token: token)
            bought.storefront = "DEU"
            bought.currency = "EUR"
            bought.price = 9990
            let first = try await s.simulator.purchase(bought)
            let original = try #require(first.originalTransactionId)
            // SUBSCRIBED / INITIAL_BUY at full price; the tax of the storefront is deducted before the commission.
            let started = try await feed.next(["subscription.started"])[0]
            #expect(started["periodType"] as? String == "normal")
            #expect(Self.money(started)["taxBasisPoints"] as? Int == 1900)
            #expect(Self.money(started)["estimatedProceeds"] as? Int == 5876, "9990 / 1.19 × 0.7")

            // DID_CHANGE_RENEWAL_PREF / DOWNGRADE, then back to the current product (no subtype).
            try await s.simulator.changeRenewalPreference(originalTransactionId: original, to: "com.example.basic", upgrade: false)
            let scheduled = try await feed.next(["subscription.productChangeScheduled"])[0]
            let change = scheduled["productChange"] as? [String: Any]
            #expect(change?["from"] as? String == "com.example.monthly")
            #expect(change?["to"] as? String == "com.example.basic")
            #expect(change?["direction"] as? String == "downgrade", "by the catalog's levels")
            try await s.simulator.changeRenewalPreference(originalTransactionId: original, to: "com.example.monthly", upgrade: false)
            try await feed.next(["subscription.productChangeCancelled"])
            // The downgrade again, effective at the next DID_RENEW.
            try await s.simulator.changeRenewalPreference(originalTransactionId: original, to: "com.example.basic", upgrade: false)
            try await feed.next(["subscription.productChangeScheduled"])
            try await s.simulator.renew(originalTransactionId: original)
            let downgraded = try await feed.next(["subscription.productChanged"])[0]
            #expect(downgraded["productId"] as? String == "com.example.basic")
            #expect(downgraded["entitlements"] as? [String] == ["basic"])
            #expect((downgraded["productChange"] as? [String: Any])?["direction"] as? String == "downgrade")
            #expect(Self.money(downgraded)["price"] as? Int == 9990)
            // DID_CHANGE_RENEWAL_PREF / UPGRADE: at once, a new transaction.
            try await s.simulator.changeRenewalPreference(originalTransactionId: original, to: "com.example.monthly", upgrade: true)
            let upgraded = try await feed.next(["subscription.productChanged"])[0]
            #expect((upgraded["productChange"] as? [String: Any])?["direction"] as? String == "upgrade")
            #expect(upgraded["entitlements"] as? [String] == ["pro", "basic"])

            // OFFER_REDEEMED for the next renewal: a promotional offer, then a retention offer (offerType 5).
            try await s.simulator.redeemOffer(originalTransactionId: original, offerType: .promotionalOffer, offerIdentifier: "SAVE20")
            try await s.simulator.renew(originalTransactionId: original)
            let promotional = try await feed.next(["subscription.offerStarted"])[0]
            #expect(promotional["periodType"] as? String == "promotional")
            try await s.simulator.redeemOffer(originalTransactionId: original, offerType: .retentionOffer, offerIdentifier: "STAY")
            let renewal = try await s.simulator.renew(originalTransactionId: original)
            let retention = try await feed.next(["subscription.offerStarted"])[0]
            #expect(retention["periodType"] as? String == "retention")
            #expect((retention["offer"] as? [String: Any])?["type"] as? Int == 5)
            try await s.simulator.renew(originalTransactionId: original)
            try await feed.next(["subscription.renewed"])

            // Storegate's Extend a Subscription Renewal Date (Apple's RENEWAL_EXTENDED that follows adds nothing).
            _ = try await s.result(
                "subscriptions.extendRenewalDate", ["bundleId": Self.bundleId, "originalTransactionId": original, "extendByDays": 7, "extendReasonCode": 3])
            #expect(try await feed.next(["subscription.extended"])[0]["extendedByDays"] as? Int == 7)

            // REFUND of one period (negative money), REFUND_REVERSED (the same back).
            _ = try await s.simulator.refund(transactionId: try #require(renewal.transactionId), percentage: 50_000)
            let refunded = try await feed.next(["purchase.refunded"])[0]
            #expect(refunded["refundPercentage"] as? Int == 50_000)
            #expect(Self.money(refunded)["price"] as? Int == -4995)
            try await s.simulator.reverseRefund(transactionId: try #require(renewal.transactionId))
            let reversed = try await feed.next(["purchase.refundReversed"])[0]
            #expect(Self.money(reversed)["price"] as? Int == 4995)
        }
    }

    @Test func oneTimePurchasesFamilySharingTransfersAndCommission() async throws {
        try await Storefront.with(slug: "lifecycle-once") { s in
            let token = try await Self.customer(s, "cleo", commission: "smallBusiness")
            let feed = Feed(s)
            // ONE_TIME_CHARGE for a non-consumable and a consumable.
            var lifetime = SimulatorStore.Purchase(
                customer: "cleo-device", bundleId: Self.bundleId, productId: "com.example.lifetime", type: .nonConsumable, appAccountToken: token)
            lifetime.price = 29_990
            _ = try await s.simulator.purchase(lifetime)
            let once = try await feed.next(["purchase.oneTime"])[0]
            #expect(once["entitlements"] as? [String] == ["pro"])
            #expect(Self.money(once)["commissionRule"] as? String == "smallBusiness")
            #expect(Self.money(once)["estimatedProceeds"] as? Int == 25_492, "29990 × 0.85")
            var coins = RefundDecisioningTests.coins("cleo-device")
            coins.appAccountToken = token
            coins.price = 3960
            _ = try await s.simulator.purchase(coins)
            let consumable = try await feed.next(["purchase.consumable"])[0]
            #expect(consumable["entitlements"] as? [String] == [])
            #expect(Self.money(consumable)["price"] as? Int == 3960)

            // An introductory price and an offer code, each a first purchase with an offer.
            var intro = Self.subscription("cleo-device", token: token)
            intro.offerType = .introductoryOffer
            intro.offerDiscountType = .payAsYouGo
            intro.price = 490
            _ = try await s.simulator.purchase(intro)
            #expect(try await feed.next(["subscription.offerStarted"])[0]["periodType"] as? String == "introductory")
            var code = Self.subscription("cleo-device", token: token, product: "com.example.basic")
            code.offerType = .offerCode
            code.offerIdentifier = "PODCAST"
            let coded = try await s.simulator.purchase(code)
            #expect(try await feed.next(["subscription.offerStarted"])[0]["periodType"] as? String == "offerCode")

            // A family member's shared access: no money (the purchaser paid), then REVOKE.
            var shared = SimulatorStore.Purchase(
                customer: "cleo-device", bundleId: Self.bundleId, productId: "com.example.lifetime", type: .nonConsumable, appAccountToken: token)
            shared.familyShared = true
            let member = try await s.simulator.purchase(shared)
            let family = try await feed.next(["purchase.oneTime"])[0]
            #expect(family["familyShared"] as? Bool == true)
            #expect(family["money"] == nil)
            _ = try await s.simulator.revokeFamilySharing(transactionId: try #require(member.transactionId))
            #expect(try await feed.next(["purchase.familyRevoked"])[0]["money"] == nil)

            // The offer-code subscription moved to another customer.
            _ = try await s.result(
                "accounts.linkTransaction",
                ["customerId": "dora", "bundleId": Self.bundleId, "signedTransaction": try s.simulator.ca.sign(coded), "transfer": true])
            let moved = try await feed.next(["purchase.transferred"])[0]
            #expect(moved["customerId"] as? String == "dora")
            #expect(moved["previousCustomerId"] as? String == "cleo")
            #expect(moved["entitlements"] as? [String] == ["basic"])
        }
    }

    @Test func afterAYearOfPaidServiceTheCommissionIsFifteenPercent() async throws {
        try await Storefront.with(slug: "lifecycle-year") { s in
            let token = try await Self.customer(s, "dan")
            let feed = Feed(s)
            var annual = Self.subscription("dan-device", token: token)
            annual.purchaseDate = Date().addingTimeInterval(-400 * 86_400)
            annual.period = 365 * 86_400
            let original = try #require(try await s.simulator.purchase(annual).originalTransactionId)
            #expect(Self.money(try await feed.next(["subscription.started"])[0])["commissionPercent"] as? Int == 30)
            // Renewed 35 days after the year ended: a gap under 60 days keeps the year.
            try await s.simulator.renew(originalTransactionId: original)
            let renewed = try await feed.next(["subscription.renewed"])[0]
            #expect(Self.money(renewed)["commissionRule"] as? String == "reducedAfterFirstYear")
            #expect(Self.money(renewed)["estimatedProceeds"] as? Int == 842, "990 × 0.85")
        }
    }

    /// The types of the lifecycle events after `sequence`.
    static func typesAfter(_ sequence: Int, _ s: Storefront) async throws -> [String] {
        let page = try await s.result("events.list", ["after": sequence, "types": types, "limit": 100])
        return (page["events"] as? [[String: Any]] ?? []).map { $0["type"] as? String ?? "" }
    }

    @Test func redeliveryBackfillAndReconciliationAddNoEvent() async throws {
        final class Count: Sendable { let value = Mutex(0) }
        let sweeps = Count()
        let settings = ReconciliationSettings(sweepEvery: .seconds(1), observe: { run in if run.kind == .sweep { sweeps.value.withLock { $0 += 1 } } })
        try await Storefront.with(slug: "lifecycle-once-only", reconciliation: settings) { s in
            let token = try await Self.customer(s, "eve")
            let feed = Feed(s)
            let start = Date().addingTimeInterval(-3600)
            // Each applied before the next is sent: what is claimed here is what redelivery, backfill and
            // reconciliation add (nothing), not the order a busy worker applies a burst in.
            let original = try #require(try await s.simulator.purchase(Self.subscription("eve-device", token: token)).originalTransactionId)
            try await s.processed(1)
            try await s.simulator.renew(originalTransactionId: original)
            try await s.processed(2)
            try await s.simulator.failRenewal(originalTransactionId: original, gracePeriod: 86_400)
            try await s.processed(3)
            try await s.simulator.renew(originalTransactionId: original)
            try await s.processed(4)
            try await s.simulator.setAutoRenew(originalTransactionId: original, enabled: false)
            try await s.processed(5)
            try await feed.next([
                "subscription.started", "subscription.renewed", "subscription.billingIssue", "subscription.gracePeriodEntered",
                "subscription.billingRecovered", "subscription.renewalCancelled",
            ])

            // A delivery that failed: Apple's history marks it, and the sweeps (every second here) or Apple's retry bring it.
            await s.store.setNotificationURL(bundleId: Self.bundleId, url: "http://127.0.0.1:9/unreachable")
            try await s.simulator.renew(originalTransactionId: original)
            try await s.eventually("a failed attempt") { await s.store.sentNotifications(bundleId: Self.bundleId).last?.attempts.isEmpty == false }
            await s.store.setNotificationURL(bundleId: Self.bundleId, url: s.webhookURL)
            try await s.processed(6)
            try await feed.next(["subscription.renewed"])
            let swept = sweeps.value.withLock { $0 }

            // Apple redelivers every notification, as its retries would.
            for sent in await s.store.sentNotifications(bundleId: Self.bundleId) {
                var request = HTTPClientRequest(url: s.webhookURL)
                request.method = .POST
                request.body = .bytes(ByteBuffer(string: #"{"signedPayload":"\#(try s.simulator.ca.sign(sent.payload))"}"#))
                #expect(try await HTTPClient.shared.execute(request, timeout: .seconds(30)).status == .ok)
            }
            // Apple's notification history, stored again (a backfill; a sweep stores through the same path).
            let backfill = try await s.result("notifications.backfill", ["bundleId": Self.bundleId, "startDate": ISO8601DateFormatter().string(from: start)])
            #expect(backfill["stored"] as? Int == 0)
            // Apple's statuses and transaction history, as reconciliation and support read them.
            _ = try await s.result("subscriptions.status", ["customerId": "eve", "refresh": true])
            _ = try await s.result(
                "transactions.history", ["bundleId": Self.bundleId, "transactionId": original])
            // Two more sweeps of Apple's history, which still lists the failed delivery.
            try await s.eventually("two more sweeps") { sweeps.value.withLock { $0 } >= swept + 2 }
            #expect(try await s.processedCount() == 6)
            #expect(try await Self.typesAfter(feed.after, s) == [], "nothing happened twice")
        }
    }

    @Test func notificationsAppliedOutOfOrderMakeTheEventsOfTheHistory() async throws {
        try await Storefront.with(slug: "lifecycle-order") { s in
            let token = try await Self.customer(s, "fay")
            let feed = Feed(s)
            await s.store.holdDeliveries(true)
            let bought = try await s.simulator.purchase(Self.subscription("fay-device", token: token))
            let original = try #require(bought.originalTransactionId)
            let renewal = try await s.simulator.renew(originalTransactionId: original)
            var held = await s.store.held.map(\.signed)
            #expect(held.count == 2)
            // The renewal arrives first: the purchase before it is read from Apple's transaction history.
            try await s.simulator.deliverHeld(held[1])
            try await s.processed(1)
            try await s.simulator.deliverHeld(held[0])
            try await s.processed(2)
            let first = try await feed.next(["subscription.started", "subscription.renewed"])
            #expect(first.map { $0["transactionId"] as? String } == [bought.transactionId, renewal.transactionId])
            #expect(Self.money(first[0])["price"] as? Int == 990)
            var status = (try await s.result("subscriptions.status", ["customerId": "fay"])["subscriptions"] as? [[String: Any]])?.first
            #expect(status?["latestTransactionId"] as? String == renewal.transactionId)
            #expect(status?["status"] as? String == "active")

            // The expiry for billing arrives before the failed renewal that led to it.
            try await s.simulator.failRenewal(originalTransactionId: original)
            try await s.simulator.expire(originalTransactionId: original, billingRetryExhausted: true)
            held = await s.store.held.map(\.signed)
            #expect(held.count == 2)
            try await s.simulator.deliverHeld(held[1])
            try await s.processed(3)
            try await s.simulator.deliverHeld(held[0])
            try await s.processed(4)
            let end = try await feed.next(["subscription.billingIssue", "subscription.expired"])
            #expect(end[0]["implied"] as? Bool == true)
            #expect(end[1]["reason"] as? String == "billingError")
            status = (try await s.result("subscriptions.status", ["customerId": "fay"])["subscriptions"] as? [[String: Any]])?.first
            #expect(status?["status"] as? String == "expired")
            #expect(try await Self.typesAfter(feed.after, s) == [])
        }
    }
}
