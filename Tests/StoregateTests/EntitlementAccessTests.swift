import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import Testing

/// Access in the tenant's words over HTTP: grants name the catalog's entitlements, `entitlements.list`
/// answers `active` by name, `entitlements.check` answers one name, and `entitlements.changed` is evented
/// once per change of a customer's names, in the unit of work that changed them.
@Suite struct EntitlementAccessTests {
    static func grant(_ s: Storefront, _ entitlement: String, days: Int = 3) async throws -> [String: Any] {
        try await s.call("entitlements.grant", ["customerId": "ada", "entitlement": entitlement, "days": days, "reason": "outage"])
    }

    static func field(_ reply: [String: Any]) -> (code: Int?, field: String?) {
        let error = reply["error"] as? [String: Any]
        return (error?["code"] as? Int, (error?["data"] as? [String: Any])?["field"] as? String)
    }

    @Test func grantsAndChecksNameTheCatalogsEntitlementsOnceItDeclaresAny() async throws {
        try await Storefront.with(slug: "access-grants") { s in
            _ = try await s.result("accounts.ensure", ["customerId": "ada"])
            #expect(try await Self.grant(s, "anything")["result"] != nil, "no catalog: a name is the tenant's own")
            #expect(try await s.result("entitlements.check", ["customerId": "ada", "entitlement": "anything"])["active"] as? Bool == true)

            _ = try await s.result("catalog.set", ["products": CatalogTests.products, "entitlements": CatalogTests.entitlements])
            let refused = Self.field(try await Self.grant(s, "anything"))
            #expect(refused.code == -32602 && refused.field == "entitlement", "the catalog declares pro and beta")
            let unknown = Self.field(try await s.call("entitlements.check", ["customerId": "ada", "entitlement": "anything"]))
            #expect(unknown.code == -32602 && unknown.field == "entitlement", "answered with the new catalog at once")

            let beta = try #require(try await Self.grant(s, "beta")["result"] as? [String: Any])
            let check = try await s.result("entitlements.check", ["customerId": "ada", "entitlement": "beta"])
            #expect(check["customerId"] as? String == "ada" && check["entitlement"] as? String == "beta")
            #expect(check["active"] as? Bool == true && check["willRenew"] as? Bool == false)
            #expect(check["until"] as? String == beta["expiresDate"] as? String)
            let pro = try await s.result("entitlements.check", ["customerId": "ada", "entitlement": "pro"])
            #expect(pro["active"] as? Bool == false && pro["until"] == nil)
            let nobody = Self.field(try await s.call("entitlements.check", ["customerId": "nobody", "entitlement": "pro"]))
            #expect(nobody.code == 1004 && nobody.field == "customerId")

            let active = try await s.result("entitlements.list", ["customerId": "ada"])["active"] as? [[String: Any]] ?? []
            #expect(active.map { $0["name"] as? String } == ["beta", "anything"], "the catalog's names first, then one granted before it declared any")
            let grantedBy = active.first?["grantedBy"] as? [[String: Any]]
            #expect(grantedBy?.first?["kind"] as? String == "grant" && grantedBy?.first?["grantId"] as? String == beta["grantId"] as? String)

            // A catalog replaced again is answered at once too.
            var entitlements = CatalogTests.entitlements
            entitlements.append(["name": "gold", "description": "", "productIds": [String]()])
            _ = try await s.result("catalog.set", ["products": CatalogTests.products, "entitlements": entitlements])
            #expect(try await s.result("entitlements.check", ["customerId": "ada", "entitlement": "gold"])["active"] as? Bool == false)
        }
    }

    @Test func entitlementsChangedIsEventedOncePerChangeOfACustomersNames() async throws {
        try await Storefront.with(slug: "access-events") { s in
            _ = try await s.result("catalog.set", ["products": CatalogTests.products, "entitlements": CatalogTests.entitlements])
            let customer = try await s.result("accounts.ensure", ["customerId": "ada"])
            let token = try #require(UUID(uuidString: customer["appAccountToken"] as? String ?? ""))
            func changes() async throws -> [[String: Any]] {
                let events = try await s.result("events.list", ["types": ["entitlements.changed"], "limit": 50])["events"] as? [[String: Any]] ?? []
                #expect(events.allSatisfy { $0["customerId"] as? String == "ada" })
                return events.compactMap { $0["data"] as? [String: Any] }
            }

            let bought = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("ada-device", token: token))
            let original = try #require(bought.originalTransactionId)
            try await s.processed(1)
            var seen = try await changes()
            #expect(seen.count == 1)
            #expect(seen.last?["before"] as? [String] == [] && seen.last?["after"] as? [String] == ["pro"])
            #expect(seen.last?["added"] as? [String] == ["pro"] && seen.last?["removed"] as? [String] == [])

            let list = try await s.result("entitlements.list", ["customerId": "ada"])
            #expect((list["subscriptions"] as? [Any])?.count == 1, "subscriptions are answered as before")
            let active = list["active"] as? [[String: Any]] ?? []
            #expect(active.map { $0["name"] as? String } == ["pro"])
            let source = (active.first?["grantedBy"] as? [[String: Any]])?.first
            #expect(source?["kind"] as? String == "subscription" && source?["originalTransactionId"] as? String == original)
            #expect(source?["productId"] as? String == "com.example.monthly" && source?["bundleId"] as? String == Storefront.bundleId)
            #expect(active.first?["willRenew"] as? Bool == true && active.first?["since"] is String && active.first?["until"] is String)
            let check = try await s.result("entitlements.check", ["customerId": "ada", "entitlement": "pro"])
            #expect(check["active"] as? Bool == true && check["willRenew"] as? Bool == true)
            #expect(check["until"] as? String == active.first?["until"] as? String)

            _ = try await s.simulator.renew(originalTransactionId: original)
            try await s.processed(2)
            #expect(try await changes().count == 1, "a renewal leaves the names as they were")

            try await s.simulator.expire(originalTransactionId: original)
            try await s.processed(3)
            seen = try await changes()
            #expect(seen.count == 2)
            #expect(seen.last?["before"] as? [String] == ["pro"] && seen.last?["after"] as? [String] == [] && seen.last?["removed"] as? [String] == ["pro"])
            #expect(try await s.result("entitlements.check", ["customerId": "ada", "entitlement": "pro"])["active"] as? Bool == false)

            let beta = try #require(try await Self.grant(s, "beta")["result"] as? [String: Any])
            seen = try await changes()
            #expect(seen.count == 3 && seen.last?["after"] as? [String] == ["beta"])
            _ = try await s.result("entitlements.revokeGrant", ["customerId": "ada", "grantId": beta["grantId"] as? String ?? ""])
            seen = try await changes()
            #expect(seen.count == 4 && seen.last?["before"] as? [String] == ["beta"] && seen.last?["after"] as? [String] == [])

            // A refund takes the name away with the purchase.
            var lifetime = SimulatorStore.Purchase(
                customer: "ada-device", bundleId: Storefront.bundleId, productId: "com.example.lifetime", type: .nonConsumable)
            lifetime.appAccountToken = token
            let unlock = try await s.simulator.purchase(lifetime)
            try await s.processed(4)
            #expect(try await changes().last?["after"] as? [String] == ["pro"])
            try await s.simulator.refund(transactionId: unlock.transactionId ?? "")
            try await s.processed(5)
            seen = try await changes()
            #expect(seen.count == 6 && seen.last?["after"] as? [String] == [])
        }
    }
}
