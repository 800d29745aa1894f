import AppStoreServer
import Foundation
import Testing

@testable import Storegate

/// The tenant's catalog: what it may hold, and what a product unlocks.
@Suite struct CatalogRuleTests {
    static func product(
        _ id: String, _ type: ProductType = .autoRenewableSubscription, group: String? = "pro", app: String = "com.example.app"
    )
        -> Catalog.Product
    {
        Catalog.Product(bundleId: app, productId: id, type: type, subscriptionGroup: group, displayName: "Product \(id)")
    }

    static let catalog = Catalog(
        products: [product("monthly"), product("yearly"), product("lifetime", .nonConsumable, group: nil), product("coins", .consumable, group: nil)],
        entitlements: [
            .init(name: "pro", description: "Everything", productIds: ["monthly", "yearly", "lifetime"]),
            .init(name: "no-ads", description: "", productIds: ["lifetime"]),
        ])

    func refusal(_ catalog: Catalog) -> String? {
        do {
            _ = try catalog.validated()
            return nil
        } catch {
            if case .invalid(let field, _) = error { return field }
            return "\(error)"
        }
    }

    @Test func aProductUnlocksEveryEntitlementThatNamesItInOrder() {
        #expect(Self.catalog.entitlements(unlockedBy: "lifetime") == ["pro", "no-ads"])
        #expect(Self.catalog.entitlements(unlockedBy: "monthly") == ["pro"])
        #expect(Self.catalog.entitlements(unlockedBy: "coins").isEmpty)
        #expect(Self.catalog.entitlements(unlockedBy: "unlisted").isEmpty)
    }

    @Test func productsTheCatalogLacksAreReportedOnceSorted() {
        #expect(Self.catalog.unknown(["yearly", "weekly", "coins", "weekly", "annual"]) == ["annual", "weekly"])
    }

    @Test func aValidCatalogPassesWithNoWarnings() throws {
        let (catalog, warnings) = try Self.catalog.validated()
        #expect(catalog == Self.catalog && warnings.isEmpty)
    }

    @Test func anEntitlementNoProductUnlocksIsAWarningNotARefusal() throws {
        var catalog = Self.catalog
        catalog.entitlements.append(.init(name: "beta", description: "Granted by support", productIds: []))
        let warnings = try catalog.validated().warnings
        #expect(warnings.count == 1 && warnings[0].contains("entitlements[2] (beta)"))
    }

    @Test func aProductTypeAppleDoesNotDefineIsRefused() {
        var catalog = Self.catalog
        catalog.products[3].type = ProductType(rawValue: "Bundle")
        #expect(refusal(catalog) == "products[3].type")
    }

    @Test func aSubscriptionGroupOnlyGoesWithAnAutoRenewableSubscription() {
        var catalog = Self.catalog
        catalog.products[2].subscriptionGroup = "pro"
        #expect(refusal(catalog) == "products[2].subscriptionGroup")
    }

    @Test func aProductListedTwiceForOneAppIsRefusedButTwoAppsMayShareAnID() throws {
        var twice = Self.catalog
        twice.products.append(Self.product("monthly"))
        #expect(refusal(twice) == "products[4].productId")
        var twoApps = Self.catalog
        twoApps.products.append(Self.product("monthly", app: "com.example.other"))
        #expect(refusal(twoApps) == nil)
    }

    @Test func entitlementNamesAreUniqueIdentifiers() {
        for (name, field) in [
            ("pro plan", "entitlements[0].name"), ("pro/plan", "entitlements[0].name"), ("", "entitlements[0].name"), ("no-ads", "entitlements[1].name"),
        ] {
            var catalog = Self.catalog
            catalog.entitlements[0].name = name
            #expect(refusal(catalog) == field, "\(name)")
        }
    }

    @Test func anEntitlementNamingAProductNotInTheCatalogIsRefusedNamingIt() {
        var catalog = Self.catalog
        catalog.entitlements[1].productIds.append("weekly")
        #expect(refusal(catalog) == "entitlements[1].productIds[1]")
    }

    @Test func eachFieldOfAProductIsChecked() {
        for (change, field): ((inout Catalog.Product) -> Void, String) in [
            ({ $0.bundleId = "com example" }, "products[0].bundleId"), ({ $0.productId = "" }, "products[0].productId"),
            ({ $0.displayName = " " }, "products[0].displayName"),
        ] {
            var catalog = Self.catalog
            change(&catalog.products[0])
            #expect(refusal(catalog) == field)
        }
    }
}
