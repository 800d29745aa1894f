import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import Testing

/// `catalog.*` over HTTP: the tenant's products and entitlements, set whole, refused naming the field with
/// nothing written, evented once per change, and the products seen that the catalog lacks.
@Suite struct CatalogTests {
    static var products: [[String: Any]] {
        [
            ["bundleId": Storefront.bundleId, "productId": "com.example.coins", "type": "Consumable", "displayName": "Coins"],
            [
                "bundleId": Storefront.bundleId, "productId": "com.example.monthly", "type": "Auto-Renewable Subscription", "subscriptionGroup": "pro",
                "displayName": "Pro monthly",
            ],
            ["bundleId": Storefront.bundleId, "productId": "com.example.lifetime", "type": "Non-Consumable", "displayName": "Pro for life"],
        ]
    }
    static var entitlements: [[String: Any]] {
        [
            ["name": "pro", "description": "Everything", "productIds": ["com.example.monthly", "com.example.lifetime"]],
            ["name": "beta", "description": "Granted by support", "productIds": [String]()],
        ]
    }

    @Test func aCatalogIsSetWholeEventedOnceAndComparedWithWhatWasSold() async throws {
        try await Storefront.with(slug: "catalog") { s in
            let empty = try await s.result("catalog.get")
            #expect((empty["products"] as? [Any])?.isEmpty == true && (empty["entitlements"] as? [Any])?.isEmpty == true)

            _ = try #require(try await s.simulator.purchase(RefundDecisioningTests.coins("cat")).transactionId)
            try await s.processed(1)
            let unknown = try await s.result("catalog.unknownProducts")["products"] as? [[String: Any]] ?? []
            #expect(unknown.count == 1 && unknown.first?["productId"] as? String == "com.example.coins")
            #expect(unknown.first?["bundleId"] as? String == Storefront.bundleId && unknown.first?["transactions"] as? Int == 1)

            let set = try await s.result("catalog.set", ["products": Self.products, "entitlements": Self.entitlements])
            #expect((set["warnings"] as? [String])?.count == 1, "beta is unlocked by no product")
            let stored = try await s.result("catalog.get")
            #expect((stored["products"] as? [[String: Any]])?.map { $0["productId"] as? String } == Self.products.map { $0["productId"] as? String })
            #expect((stored["entitlements"] as? [[String: Any]])?.first?["productIds"] as? [String] == ["com.example.monthly", "com.example.lifetime"])
            #expect((try await s.result("catalog.unknownProducts")["products"] as? [Any])?.isEmpty == true, "coins are listed now")

            _ = try await s.result("catalog.set", ["products": Self.products, "entitlements": Self.entitlements])
            let events = try await s.result("events.list", ["types": ["catalog.changed"], "limit": 10])["events"] as? [[String: Any]] ?? []
            #expect(events.count == 1, "the same catalog again is no change")
            let data = events.first?["data"] as? [String: Any]
            #expect(data?["products"] as? Int == 3 && data?["entitlements"] as? [String] == ["pro", "beta"])
        }
    }

    @Test func aBadCatalogIsRefusedNamingTheFieldAndNothingIsWritten() async throws {
        try await Storefront.with(slug: "catalog-bad") { s in
            _ = try await s.result("catalog.set", ["products": Self.products, "entitlements": Self.entitlements])
            let before = try await s.result("catalog.get")
            func refused(_ change: (inout [[String: Any]], inout [[String: Any]]) -> Void) async throws -> String? {
                var (products, entitlements) = (Self.products, Self.entitlements)
                change(&products, &entitlements)
                let reply = try await s.call("catalog.set", ["products": products, "entitlements": entitlements])
                let error = reply["error"] as? [String: Any]
                #expect(error?["code"] as? Int == -32602, "\(reply)")
                return (error?["data"] as? [String: Any])?["field"] as? String
            }
            #expect(try await refused { products, _ in products[0]["type"] = "Bundle" } == "products[0].type")
            #expect(try await refused { products, _ in products[0]["bundleId"] = "com.example.notmine" } == "products[0].bundleId")
            #expect(try await refused { products, _ in products[2]["subscriptionGroup"] = "pro" } == "products[2].subscriptionGroup")
            #expect(try await refused { products, _ in products.append(products[1]) } == "products[3].productId")
            #expect(try await refused { _, entitlements in entitlements[0]["productIds"] = ["com.example.weekly"] } == "entitlements[0].productIds[0]")
            #expect(try await refused { _, entitlements in entitlements[1]["name"] = "pro" } == "entitlements[1].name")
            #expect(try await refused { _, entitlements in entitlements[1]["name"] = "no ads" } == "entitlements[1].name")
            let after = try await s.result("catalog.get")
            #expect(CatalogTests.canonical(after) == CatalogTests.canonical(before))
            let events = try await s.result("events.list", ["types": ["catalog.changed"], "limit": 10])["events"] as? [Any] ?? []
            #expect(events.count == 1)
        }
    }

    static func canonical(_ object: Any) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
    }
}
