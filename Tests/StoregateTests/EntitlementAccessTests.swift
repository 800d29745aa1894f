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
}
