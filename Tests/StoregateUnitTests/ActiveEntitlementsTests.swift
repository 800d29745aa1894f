import AppStoreServer
import Foundation
import Testing

@testable import Storegate

/// Access in the tenant's words, worked out from the catalog and what a customer holds: no database.
@Suite struct ActiveEntitlementsTests {
    static let app = UUID()
    static let otherApp = UUID()
    static let bundleIds = [app: "com.example.app", otherApp: "com.example.other"]
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static let catalog = Catalog(
        products: [
            .init(bundleId: "com.example.app", productId: "monthly", type: .autoRenewableSubscription, subscriptionGroup: "pro", displayName: "Monthly"),
            .init(bundleId: "com.example.app", productId: "lifetime", type: .nonConsumable, subscriptionGroup: nil, displayName: "Lifetime"),
            .init(bundleId: "com.example.app", productId: "season", type: .nonRenewingSubscription, subscriptionGroup: nil, displayName: "Season"),
        ],
        entitlements: [
            .init(name: "no-ads", description: "", productIds: ["lifetime", "season"]),
            .init(name: "pro", description: "", productIds: ["monthly", "lifetime"]),
            .init(name: "beta", description: "", productIds: []),
        ])

    static func subscription(
        _ productId: String = "monthly", app: UUID = app, status: Status = .active, days: Double = 10, autoRenew: Bool = true,
        grace: Date? = nil
    ) -> Subscription {
        Subscription(
            appId: app, environment: .sandbox, originalTransactionId: "1000", subscriptionGroupIdentifier: "pro", customer: nil, status: status,
            productId: productId, latestTransactionId: "1001", purchaseDate: now.addingTimeInterval(-20 * 86_400),
            expiresDate: now.addingTimeInterval(days * 86_400), autoRenewStatus: autoRenew, autoRenewProductId: productId, inBillingRetry: false,
            gracePeriodExpiresDate: grace, offerType: nil, offerIdentifier: nil, price: nil, currency: nil, signedDate: now)
    }

    static func purchase(
        _ productId: String, type: ProductType = .nonConsumable, app: UUID = app, daysAgo: Double = 100, expires: Date? = nil, revoked: Date? = nil
    ) -> OneTimePurchase {
        OneTimePurchase(
            appId: app, environment: .sandbox, transactionId: "2000", originalTransactionId: "2000", productId: productId, productType: type,
            purchaseDate: now.addingTimeInterval(-daysAgo * 86_400), expiresDate: expires, revocationDate: revoked, quantity: 1)
    }

    static func grant(_ target: Grant.Target, days: Double = 5, revoked: Date? = nil) -> Grant {
        Grant(
            id: UUID(), customer: UUID(), target: target, startsDate: now.addingTimeInterval(-86_400), expiresDate: now.addingTimeInterval(days * 86_400),
            reason: "sorry", grantedBy: "test", grantedDate: now, revokedDate: revoked)
    }

    static func active(
        _ subscriptions: [Subscription] = [], _ purchases: [OneTimePurchase] = [], _ grants: [Grant] = [], catalog: Catalog = catalog
    )
        -> ActiveEntitlements
    {
        ActiveEntitlements(
            catalog: catalog, holdings: Holdings(customer: UUID(), subscriptions: subscriptions, purchases: purchases, grants: grants), now: now,
            bundleIds: bundleIds)
    }

    @Test func eachNameOnceInTheCatalogsOrderWithEveryHoldingThatGrantsIt() throws {
        let active = Self.active([Self.subscription()], [Self.purchase("lifetime")])
        #expect(active.entitlements.map(\.name) == ["no-ads", "pro"], "the catalog's order")
        #expect(active.names == ["no-ads", "pro"])
        let pro = try #require(active.entitlement(named: "pro"))
        #expect(pro.grantedBy.count == 2)
        #expect(pro.since == Self.now.addingTimeInterval(-100 * 86_400), "the earliest start: the purchase's")
        #expect(pro.until == nil, "a non-consumable never ends")
        #expect(pro.willRenew, "the subscription is active with auto-renew on")
        let noAds = try #require(active.entitlement(named: "no-ads"))
        #expect(noAds.grantedBy.count == 1 && noAds.willRenew == false)
    }

    @Test func untilIsTheLatestEndAndWillRenewNeedsAutoRenewOn() throws {
        let season = Self.purchase("season", type: .nonRenewingSubscription, daysAgo: 3, expires: Self.now.addingTimeInterval(30 * 86_400))
        let active = Self.active([Self.subscription(autoRenew: false)], [season])
        #expect(active.entitlement(named: "pro")?.until == Self.now.addingTimeInterval(10 * 86_400))
        #expect(active.entitlement(named: "pro")?.willRenew == false)
        #expect(active.entitlement(named: "no-ads")?.until == Self.now.addingTimeInterval(30 * 86_400))
        #expect(active.entitlement(named: "no-ads")?.since == Self.now.addingTimeInterval(-3 * 86_400))
    }

    @Test func aGracePeriodLastsUntilItsEnd() throws {
        let grace = Self.now.addingTimeInterval(6 * 86_400)
        let pro = try #require(Self.active([Self.subscription(status: .billingGracePeriod, days: -1, grace: grace)]).entitlement(named: "pro"))
        #expect(pro.until == grace)
        #expect(pro.willRenew == false, "not active: billing is being retried")
    }

    @Test func whatGivesNoAccessNowGivesNoName() {
        #expect(Self.active([Self.subscription(days: -1)]).names == [], "expired with no renewal")
        #expect(Self.active([Self.subscription(status: .revoked)]).names == [])
        #expect(Self.active([], [Self.purchase("lifetime", revoked: Self.now)]).names == [], "refunded")
        #expect(Self.active([], [], [Self.grant(.entitlement("beta"), revoked: Self.now)]).names == [])
        #expect(Self.active([], [], [Self.grant(.entitlement("beta"), days: -0.5)]).names == [], "expired grant")
    }

    @Test func aProductTheCatalogLacksForItsAppGivesNoName() {
        #expect(Self.active([Self.subscription("weekly")]).names == [], "not in the catalog")
        #expect(Self.active([Self.subscription(app: Self.otherApp)]).names == [], "in the catalog for another app only")
        #expect(Self.active([Self.subscription()], catalog: Catalog()).names == [], "no catalog: products give no names")
    }

    @Test func grantsGiveTheirEntitlementOrTheirProductsAndUndeclaredNamesFollow() throws {
        let active = Self.active(
            [], [],
            [
                Self.grant(.product(appId: Self.app, productId: "monthly"), days: 7), Self.grant(.entitlement("zeta")),
                Self.grant(.entitlement("beta"), days: 3), Self.grant(.entitlement("alpha")),
            ])
        #expect(active.entitlements.map(\.name) == ["pro", "beta", "alpha", "zeta"], "declared in the catalog's order, then the rest by name")
        #expect(active.entitlement(named: "pro")?.until == Self.now.addingTimeInterval(7 * 86_400))
        #expect(active.entitlement(named: "beta")?.since == Self.now.addingTimeInterval(-86_400))
        #expect(active.names == ["alpha", "beta", "pro", "zeta"])
    }

    @Test func aGrantedByEntryNamesItsHolding() throws {
        let grant = Self.grant(.entitlement("pro"))
        let pro = try #require(Self.active([Self.subscription()], [Self.purchase("lifetime")], [grant]).entitlement(named: "pro"))
        let sources = pro.grantedBy.map { EntitlementSource($0, bundleIds: Self.bundleIds) }
        #expect(sources.map(\.kind) == ["subscription", "purchase", "grant"])
        #expect(sources[0].originalTransactionId == "1000" && sources[0].bundleId == "com.example.app" && sources[0].commitment == nil)
        #expect(sources[1].transactionId == "2000" && sources[1].productId == "lifetime")
        #expect(sources[2].grantId == Grant.displayId(grant.id) && sources[2].productId == nil)
    }

    @Test func aCommitmentPlansTermsComeWithItsSubscription() throws {
        var monthly = Self.subscription()
        monthly.billingPlanType = .monthly
        monthly.commitment = Commitment(billingPeriodNumber: 4, totalBillingPeriods: 12, expiresDate: Self.now.addingTimeInterval(240 * 86_400), price: 11880)
        let pro = try #require(Self.active([monthly]).entitlement(named: "pro"))
        let source = EntitlementSource(try #require(pro.grantedBy.first), bundleIds: Self.bundleIds)
        #expect(source.commitment?.billingPeriodNumber == 4 && source.commitment?.totalBillingPeriods == 12)
        #expect(source.commitment?.nextPeriodBills == true)
    }

    @Test func grantsNameADeclaredEntitlementOnceTheCatalogDeclaresAny() {
        #expect(Self.catalog.accepts(entitlement: "beta"))
        #expect(!Self.catalog.accepts(entitlement: "gold"))
        #expect(Catalog().accepts(entitlement: "gold"), "no entitlements declared: free-form names")
    }
}
