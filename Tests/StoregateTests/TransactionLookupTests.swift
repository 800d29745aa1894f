import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import Testing

/// Transaction lookups through Apple's API (the simulator over HTTP), each answer verified and stored,
/// and a customer's purchases rebuilt from Apple.
@Suite struct TransactionLookupTests {
    static func field(_ reply: [String: Any]) -> String? { ((reply["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String }
    static func code(_ reply: [String: Any]) -> Int? { (reply["error"] as? [String: Any])?["code"] as? Int }

    /// 45 purchases: Apple's pages of 20 are followed to the end, filters are Apple's, and a cursor continues.
    @Test func historyFollowsEveryPageWithFiltersAndACursor() async throws {
        try await Storefront.with(slug: "history", sendNotifications: false) { s in
            var ids: [String] = []
            for index in 0..<45 {
                var purchase = RefundDecisioningTests.coins("hal", quantity: 1)
                if index % 3 == 0 {
                    purchase.productId = "com.example.pro"
                    purchase.type = .nonConsumable
                }
                ids.append(try #require(try await s.simulator.purchase(purchase).transactionId))
            }
            _ = try await s.simulator.refund(transactionId: ids[1])
            let bundleId = Storefront.bundleId

            let all = try await s.result("transactions.history", ["bundleId": bundleId, "transactionId": ids[0], "limit": 1000])
            let transactions = try #require(all["transactions"] as? [[String: Any]])
            #expect(transactions.compactMap { $0["transactionId"] as? String } == ids, "three pages, in Apple's order")
            #expect(all["hasMore"] as? Bool == false)
            #expect(all["cursor"] == nil)
            #expect(all["environment"] as? String == "Sandbox")
            #expect(await s.store.received.filter { $0.path.hasPrefix("/inApps/v2/history/") }.count == 3)

            let pro = try await s.result("transactions.history", ["bundleId": bundleId, "transactionId": ids[0], "productTypes": ["Non-Consumable"]])
            #expect((pro["transactions"] as? [[String: Any]])?.count == 15)
            #expect((pro["transactions"] as? [[String: Any]])?.allSatisfy { $0["productId"] as? String == "com.example.pro" } == true)
            let revoked = try await s.result("transactions.history", ["bundleId": bundleId, "transactionId": ids[2], "revoked": true])
            #expect((revoked["transactions"] as? [[String: Any]])?.compactMap { $0["transactionId"] as? String } == [ids[1]])

            // A limit stops after a whole page; the cursor continues where it stopped.
            let first = try await s.result("transactions.history", ["bundleId": bundleId, "transactionId": ids[0], "limit": 5])
            #expect((first["transactions"] as? [[String: Any]])?.count == 20)
            #expect(first["hasMore"] as? Bool == true)
            let cursor = try #require(first["cursor"] as? String)
            let rest = try await s.result("transactions.history", ["bundleId": bundleId, "transactionId": ids[0], "cursor": cursor, "limit": 1000])
            #expect((rest["transactions"] as? [[String: Any]])?.compactMap { $0["transactionId"] as? String } == Array(ids.dropFirst(20)))

            // Every transaction seen is stored (no notification was sent: the history is the only source).
            let app = try await s.capabilities.apps.get(tenant: s.tenant.tenant, bundleId: bundleId).app
            let stored = try await s.capabilities.persistence.inTenant(s.tenant.tenant, .read) { unit in
                var found = 0
                for id in ids where try await unit.transactions.facts(appId: app.id, transactionId: id) != nil { found += 1 }
                return found
            }
            #expect(stored == 45)

            for (params, field) in [
                (["cursor": "nonsense"], "cursor"), (["cursor": "Production:abc"], "cursor"), (["limit": 0], "limit"),
                (["startDate": "2026-02-01T00:00:00Z", "endDate": "2026-01-01T00:00:00Z"], "endDate"), (["productTypes": ["Coins"]], "productTypes[0]"),
                (["sort": "SIDEWAYS"], "sort"), (["transactionId": "abc"], "transactionId"),
            ] as [([String: Any], String)] {
                var call: [String: Any] = ["bundleId": bundleId, "transactionId": ids[0]]
                call.merge(params) { $1 }
                let refused = try await s.call("transactions.history", call)
                #expect(Self.code(refused) == -32602, "\(params)")
                #expect(Self.field(refused) == field, "\(params)")
            }
            let unknown = try await s.call("transactions.history", ["bundleId": bundleId, "transactionId": "42"])
            #expect(Self.code(unknown) == 1030)
        }
    }

    /// `transactions.get` verifies and stores one transaction; an unknown one is Apple's error, named.
    @Test func getVerifiesAndStoresATransaction() async throws {
        try await Storefront.with(slug: "txget", sendNotifications: false) { s in
            let customer = try await s.result("accounts.ensure", ["customerId": "jo"])
            let token = try #require(UUID(uuidString: customer["appAccountToken"] as? String ?? ""))
            let bought = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("jo-device", token: token))
            let id = try #require(bought.transactionId)
            let found = try await s.result("transactions.get", ["bundleId": Storefront.bundleId, "transactionId": id])
            let transaction = try #require(found["transaction"] as? [String: Any])
            #expect(transaction["transactionId"] as? String == id)
            #expect(transaction["productId"] as? String == "com.example.monthly")
            #expect(transaction["appAccountToken"] as? String == token.uuidString.lowercased())
            #expect(found["customerId"] as? String == "jo", "owned through the appAccountToken Storegate gave")
            let resolved = try await s.result("accounts.resolve", ["bundleId": Storefront.bundleId, "transactionId": id])
            #expect(resolved["customerId"] as? String == "jo", "stored")

            let unknown = try await s.call("transactions.get", ["bundleId": Storefront.bundleId, "transactionId": "31337"])
            #expect(Self.code(unknown) == 1030)
            #expect(Self.field(unknown) == "transactionId")
            let otherApp = try await s.call("transactions.get", ["bundleId": "com.example.nope", "transactionId": id])
            #expect(Self.code(otherApp) == 1004)
        }
    }

    /// A customer known only by the app transaction their device sent: `customers.sync` reads Apple's history
    /// and statuses and rebuilds their subscription and purchases, which no notification had brought.
    @Test func syncRebuildsACustomersPurchasesFromApple() async throws {
        try await Storefront.with(slug: "restore", sendNotifications: false) { s in
            let bundleId = Storefront.bundleId
            let subscription = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("lee"))
            var pro = AppStoreServerAPIClientTests.consumable("lee")
            pro.productId = "com.example.pro"
            pro.type = .nonConsumable
            let unlock = try await s.simulator.purchase(pro)
            let coins = try await s.simulator.purchase(RefundDecisioningTests.coins("lee"))
            _ = try await s.simulator.refund(transactionId: try #require(coins.transactionId))
            try await s.simulator.renew(originalTransactionId: try #require(subscription.originalTransactionId))

            _ = try await s.result("accounts.ensure", ["customerId": "lee-1"])
            let unlockId = try #require(unlock.transactionId)
            let appTransaction = try #require(try await s.sim.client.getAppTransactionInfo(anyTransactionId: unlockId).signedAppTransactionInfo)
            _ = try await s.result("accounts.linkAppTransaction", ["bundleId": bundleId, "customerId": "lee-1", "signedAppTransaction": appTransaction])
            let before = try await s.result("entitlements.list", ["customerId": "lee-1"])
            #expect((before["subscriptions"] as? [Any])?.isEmpty == true)
            #expect((before["purchases"] as? [Any])?.isEmpty == true)

            let synced = try await s.result("customers.sync", ["customerId": "lee-1"])
            let apps = try #require(synced["apps"] as? [[String: Any]])
            #expect(apps.count == 1)
            #expect(apps.first?["transactions"] as? Int == 4, "the purchase, its renewal, the unlock and the refunded coins")
            #expect(apps.first?["subscriptions"] as? Int == 1)
            let subscriptions = try #require(synced["subscriptions"] as? [[String: Any]])
            #expect(subscriptions.first?["status"] as? String == "active")
            #expect(subscriptions.first?["latestTransactionId"] as? String != subscription.transactionId, "the renewal is the latest")
            #expect((synced["purchases"] as? [[String: Any]])?.compactMap { $0["productId"] as? String } == ["com.example.pro"], "refunded coins grant nothing")

            let after = try await s.result("entitlements.list", ["customerId": "lee-1"])
            #expect((after["subscriptions"] as? [Any])?.count == 1)
            #expect((after["purchases"] as? [Any])?.count == 1)
            let owner = try await s.result(
                "accounts.resolve", ["bundleId": bundleId, "originalTransactionId": try #require(subscription.originalTransactionId)])
            #expect(owner["customerId"] as? String == "lee-1")

            let nobody = try await s.call("customers.sync", ["customerId": "nobody"])
            #expect(Self.code(nobody) == 1004)
            let audit = try await s.capabilities.persistence.inTenant(s.tenant.tenant, .read) { try await $0.auditLog() }
            #expect(audit.contains { $0.action == "customer.sync" })
        }
    }
}
