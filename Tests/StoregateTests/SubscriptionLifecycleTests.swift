import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import Testing

/// A subscription's life, from the simulator's notifications through Storegate's webhook into
/// `subscriptions.status` and `entitlements.list`, over HTTP.
@Suite struct SubscriptionLifecycleTests {
    /// Subscriptions bought without an offer apply the subscription upsert with a NULL offer type until it is
    /// prepared on the worker's connections; an offer-code purchase after them is applied all the same and
    /// read by its transaction ID (it once failed with `22P03` on such a connection, and was lost).
    @Test func anOfferCodePurchaseAfterPlainOnesIsAppliedAndReadByTransactionId() async throws {
        try await Storefront.with(slug: "offercodes") { s in
            for n in 1...4 {
                _ = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("plain-\(n)"))
                try await s.processed(n)
            }
            var redemption = AppStoreServerAPIClientTests.subscription("nora-device")
            redemption.offerType = .offerCode
            redemption.offerIdentifier = "SPRING"
            let bought = try await s.simulator.purchase(redemption)
            try await s.processed(5)
            let result = try await s.result(
                "subscriptions.status", ["bundleId": Storefront.bundleId, "transactionId": try #require(bought.transactionId)])
            let subscriptions = result["subscriptions"] as? [[String: Any]] ?? []
            #expect(subscriptions.count == 1, "\(result)")
            #expect(subscriptions.first?["originalTransactionId"] as? String == bought.originalTransactionId)
            #expect(subscriptions.first?["status"] as? String == "active")
            #expect(subscriptions.first?["offerType"] as? Int == 3)
            #expect(subscriptions.first?["offerIdentifier"] as? String == "SPRING")
            let notifications = try await s.result("notifications.list", ["bundleId": Storefront.bundleId])["notifications"] as? [[String: Any]] ?? []
            #expect(notifications.count == 5)
            #expect(notifications.allSatisfy { $0["processingError"] == nil }, "\(notifications)")
        }
    }

    @Test func purchaseRenewalBillingRetryGracePeriodAndExpiry() async throws {
        try await Storefront.with(slug: "lifecycle") { s in
            let customer = try await s.result("accounts.ensure", ["customerId": "ada"])
            let token = try #require(UUID(uuidString: customer["appAccountToken"] as? String ?? ""))

            func status() async throws -> [String: Any] {
                let result = try await s.result("subscriptions.status", ["customerId": "ada"])
                let subscriptions = result["subscriptions"] as? [[String: Any]] ?? []
                #expect(subscriptions.count == 1, "\(result)")
                return subscriptions.first ?? [:]
            }
            func entitled() async throws -> [String] {
                let result = try await s.result("entitlements.list", ["customerId": "ada"])
                return (result["subscriptions"] as? [[String: Any]] ?? []).compactMap { $0["productId"] as? String }
                    + (result["purchases"] as? [[String: Any]] ?? []).compactMap { $0["productId"] as? String }
            }

            // The purchase carries the customer's appAccountToken: Storegate links it from the notification alone.
            let bought = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("ada-device", token: token))
            let original = try #require(bought.originalTransactionId)
            try await s.processed(1)
            var current = try await status()
            #expect(current["status"] as? String == "active")
            #expect(current["statusCode"] as? Int == 1)
            #expect(current["originalTransactionId"] as? String == original)
            #expect(current["productId"] as? String == "com.example.monthly")
            #expect(current["subscriptionGroupIdentifier"] as? String == "group.premium")
            #expect(current["autoRenewStatus"] as? Bool == true)
            #expect(current["price"] as? Int == 990)
            #expect(current["currency"] as? String == "USD")
            let terms = current["renewal"] as? [String: Any]
            #expect(terms?["price"] as? Int == 990, "the renewal price from Apple's renewal info: \(current)")
            #expect(terms?["currency"] as? String == "USD")
            #expect(terms?["expirationIntent"] == nil)
            #expect(try await entitled() == ["com.example.monthly"])

            let renewal = try await s.simulator.renew(originalTransactionId: original)
            try await s.processed(2)
            current = try await status()
            #expect(current["status"] as? String == "active")
            #expect(current["latestTransactionId"] as? String == renewal.transactionId)

            try await s.simulator.failRenewal(originalTransactionId: original)
            try await s.processed(3)
            current = try await status()
            #expect(current["status"] as? String == "billingRetry")
            #expect(current["inBillingRetry"] as? Bool == true)
            #expect(try await entitled() == [], "billing retry without a grace period grants nothing")

            try await s.simulator.renew(originalTransactionId: original)
            try await s.processed(4)
            #expect(try await status()["status"] as? String == "active", "billing recovered")

            try await s.simulator.failRenewal(originalTransactionId: original, gracePeriod: 6 * 86_400)
            try await s.processed(5)
            current = try await status()
            #expect(current["status"] as? String == "gracePeriod")
            #expect(current["gracePeriodExpiresDate"] is String)
            #expect(try await entitled() == ["com.example.monthly"], "the grace period keeps access")

            try await s.simulator.expire(originalTransactionId: original, billingRetryExhausted: true)
            try await s.processed(6)
            current = try await status()
            #expect(current["status"] as? String == "expired")
            #expect(current["autoRenewStatus"] as? Bool == false)
            #expect((current["renewal"] as? [String: Any])?["expirationIntent"] as? Int == 2, "billing error, as Apple's renewal info says")
            #expect(try await entitled() == [])

            // A one-time purchase shows up in entitlements until it is refunded.
            var lifetime = SimulatorStore.Purchase(
                customer: "ada-device", bundleId: Storefront.bundleId, productId: "com.example.lifetime", type: .nonConsumable)
            lifetime.appAccountToken = token
            let unlock = try await s.simulator.purchase(lifetime)
            try await s.processed(7)
            #expect(try await entitled() == ["com.example.lifetime"])
            try await s.simulator.refund(transactionId: unlock.transactionId ?? "")
            try await s.processed(8)
            #expect(try await entitled() == [])

            // The same state by transaction ID, and refreshed from Apple's Get All Subscription Statuses.
            let byTransaction = try await s.result(
                "subscriptions.status", ["bundleId": Storefront.bundleId, "transactionId": renewal.transactionId ?? "", "refresh": true])
            let refreshed = (byTransaction["subscriptions"] as? [[String: Any]])?.first
            #expect(refreshed?["status"] as? String == "expired")
            #expect(await s.store.received.contains { $0.path == "/inApps/v1/subscriptions/\(renewal.transactionId ?? "")" })
        }
    }

    /// An app in both environments against the simulator, which serves each under its own path as Apple
    /// serves each from its own host: a refresh asks Production, finds nothing there, and reads Sandbox.
    @Test func refreshOfAnAppInBothEnvironmentsFindsTheSandboxSubscription() async throws {
        try await Storefront.with(slug: "both-environments", sendNotifications: false, environments: ["Production", "Sandbox"]) { s in
            let customer = try await s.result("accounts.ensure", ["customerId": "cy"])
            let token = try #require(UUID(uuidString: customer["appAccountToken"] as? String ?? ""))
            let bought = await s.store.purchase(AppStoreServerAPIClientTests.subscription("cy-device", token: token))
            let signed = try #require(try await s.sim.client.getTransactionInfo(transactionId: bought.transactionId ?? "").signedTransactionInfo)
            _ = try await s.result("accounts.linkTransaction", ["bundleId": Storefront.bundleId, "customerId": "cy", "signedTransaction": signed])

            let refreshed = try await s.result("subscriptions.status", ["customerId": "cy", "refresh": true])
            let subscription = (refreshed["subscriptions"] as? [[String: Any]])?.first
            #expect(subscription?["status"] as? String == "active")
            #expect(subscription?["environment"] as? String == "Sandbox")
            let asked = await s.store.received.filter { $0.path.hasPrefix("/inApps/v1/subscriptions/") }.map(\.environment)
            #expect(asked == [.production, .sandbox], "Production first, as Apple advises; found in Sandbox")
        }
    }

    @Test func refreshReconcilesWhatNotificationsMissed() async throws {
        try await Storefront.with(slug: "refresh", sendNotifications: false) { s in
            let customer = try await s.result("accounts.ensure", ["customerId": "bo"])
            let token = try #require(UUID(uuidString: customer["appAccountToken"] as? String ?? ""))
            let bought = await s.store.purchase(AppStoreServerAPIClientTests.subscription("bo-device", token: token))
            let signed = try #require(try await s.sim.client.getTransactionInfo(transactionId: bought.transactionId ?? "").signedTransactionInfo)
            _ = try await s.result("accounts.linkTransaction", ["bundleId": Storefront.bundleId, "customerId": "bo", "signedTransaction": signed])
            #expect((try await s.result("subscriptions.status", ["customerId": "bo"])["subscriptions"] as? [Any])?.isEmpty == true, "no notification arrived")

            let refreshed = try await s.result("subscriptions.status", ["customerId": "bo", "refresh": true])
            let subscription = (refreshed["subscriptions"] as? [[String: Any]])?.first
            #expect(subscription?["status"] as? String == "active")
            #expect(subscription?["originalTransactionId"] as? String == bought.originalTransactionId)

            let bad = try await s.call("subscriptions.status", ["customerId": "bo", "transactionId": "1"])
            #expect((bad["error"] as? [String: Any])?["code"] as? Int == -32602)
            let unknown = try await s.call("subscriptions.status", ["customerId": "nobody"])
            #expect(((unknown["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "customerId")
        }
    }
}
