import AppStoreServer
import Foundation

/// What a customer may use now, in the tenant's words: each entitlement name they have, with every
/// holding that grants it, since when and until when, and whether it renews. A pure function of the
/// catalog and the holdings in force, shared by `entitlements.list`, `entitlements.check`, the
/// `entitlements.changed` event and the console.
///
/// A subscription, a purchase or a grant of a product unlocks the entitlements the catalog gives that
/// product of that app; a product the catalog does not list unlocks no name (it still counts by its
/// product ID where holdings are listed, and `catalog.unknownProducts` reports it). A grant of an
/// entitlement gives that name. Entitlements come in the catalog's order; a granted name the catalog does
/// not declare (given while it declared none) follows, by name.
public struct ActiveEntitlements: Sendable {
    /// A holding that grants access now.
    public enum Holding: Sendable {
        case subscription(SubscriptionState)
        case purchase(OneTimePurchase)
        case grant(Grant)
    }

    /// One entitlement the customer has now.
    public struct Entitlement: Sendable {
        public let name: String
        /// Every holding that grants it now, in the order the holdings were given.
        public let grantedBy: [Holding]
        /// The earliest start among them.
        public let since: Date?
        /// The latest end among them; nil when one of them never ends (a non-consumable).
        public let until: Date?
        /// Whether a subscription that grants it is active with auto-renew on.
        public let willRenew: Bool
    }

    public let entitlements: [Entitlement]

    /// `subscriptions`, `purchases` and `grants` are those that grant access now; `bundleIds` names their apps.
    public init(catalog: Catalog, subscriptions: [SubscriptionState], purchases: [OneTimePurchase], grants: [Grant], bundleIds: [UUID: String]) {
        var holders: [String: [Holding]] = [:]
        func add(_ holding: Holding, _ names: [String]) {
            for name in names { holders[name, default: []].append(holding) }
        }
        for state in subscriptions {
            let s = state.subscription
            add(.subscription(state), catalog.entitlements(unlockedBy: s.productId, in: bundleIds[s.appId]))
        }
        for purchase in purchases { add(.purchase(purchase), catalog.entitlements(unlockedBy: purchase.productId, in: bundleIds[purchase.appId])) }
        for grant in grants {
            switch grant.target {
            case .entitlement(let name): add(.grant(grant), [name])
            case .product(let appId, let productId): add(.grant(grant), catalog.entitlements(unlockedBy: productId, in: bundleIds[appId]))
            }
        }
        let declared = catalog.entitlements.map(\.name)
        let order = declared.filter { holders[$0] != nil } + holders.keys.filter { !declared.contains($0) }.sorted()
        entitlements = order.map { name in Self.entitlement(name, holders[name] ?? []) }
    }

    /// The holdings in force at `now` of what a customer holds.
    public init(catalog: Catalog, holdings: Holdings, now: Date, bundleIds: [UUID: String]) {
        self.init(
            catalog: catalog, subscriptions: holdings.subscriptions.map { SubscriptionState($0, now: now) }.filter(\.grantsAccess),
            purchases: holdings.purchases.filter { $0.grantsAccess(now: now) }, grants: holdings.grants.filter { $0.grantsAccess(now: now) },
            bundleIds: bundleIds)
    }

    /// The names, sorted: what `entitlements.changed` compares and reports.
    public var names: [String] { entitlements.map(\.name).sorted() }

    public func entitlement(named name: String) -> Entitlement? { entitlements.first { $0.name == name } }

    static func entitlement(_ name: String, _ holdings: [Holding]) -> Entitlement {
        let ends = holdings.map(\.end)
        return Entitlement(
            name: name, grantedBy: holdings, since: holdings.compactMap(\.start).min(),
            until: ends.contains { $0 == nil } ? nil : ends.compactMap { $0 }.max(), willRenew: holdings.contains(where: \.renews))
    }
}

extension ActiveEntitlements.Holding {
    /// When it started: a subscription's purchase date as stored, a purchase's, a grant's start.
    var start: Date? {
        switch self {
        case .subscription(let state): state.subscription.purchaseDate
        case .purchase(let purchase): purchase.purchaseDate
        case .grant(let grant): grant.startsDate
        }
    }

    /// When it ends unless renewed; nil when it never ends. A subscription in its grace period ends with it.
    var end: Date? {
        switch self {
        case .subscription(let state):
            state.status == .billingGracePeriod ? state.subscription.gracePeriodExpiresDate ?? state.subscription.expiresDate : state.subscription.expiresDate
        case .purchase(let purchase): purchase.expiresDate
        case .grant(let grant): grant.expiresDate
        }
    }

    /// An active subscription with auto-renew on.
    var renews: Bool {
        guard case .subscription(let state) = self else { return false }
        return state.status == .active && state.subscription.autoRenewStatus == true
    }
}
