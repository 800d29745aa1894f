import AppStoreServer
import Contract
import Foundation

/// A tenant's catalog, in its own words: what each app sells (product ID, Apple's product type, the
/// subscription group, a display name) and the entitlements those products unlock ("pro", "no-ads", …).
/// Access is answered by entitlement name; a product the catalog lacks still counts by its product ID.
@RPCObject(title: "Catalog") public struct Catalog: Sendable, Equatable, Codable {
    @RPCObject(title: "CatalogProduct") public struct Product: Sendable, Equatable, Codable {
        @Field(.bundleId) public var bundleId: String
        @Field(.storeIdentifier) public var productId: String
        public var type: ProductType
        /// The subscription group, for an auto-renewable subscription (Apple's `subscriptionGroupIdentifier`).
        public var subscriptionGroup: String?
        public var displayName: String
    }

    @RPCObject(title: "CatalogEntitlement") public struct Entitlement: Sendable, Equatable, Codable {
        /// The name the tenant's app checks (the rule grants' entitlement names keep).
        @Field(.entitlementName) public var name: String
        public var description: String
        /// The products (by product ID) that unlock it.
        public var productIds: [String]
    }

    public var products: [Product]
    public var entitlements: [Entitlement]

    public init(products: [Product] = [], entitlements: [Entitlement] = []) {
        self.products = products
        self.entitlements = entitlements
    }

    public var isEmpty: Bool { products.isEmpty && entitlements.isEmpty }

    /// The names of the entitlements `productId` unlocks, in the catalog's order.
    public func entitlements(unlockedBy productId: String) -> [String] {
        entitlements.filter { $0.productIds.contains(productId) }.map(\.name)
    }

    /// Whether `name` is one of the catalog's entitlements.
    public func has(entitlement name: String) -> Bool { entitlements.contains { $0.name == name } }

    /// Of `productIds` (those Storegate has seen), the ones the catalog does not list, each once, sorted.
    public func unknown(_ productIds: some Sequence<String>) -> [String] {
        let listed = Set(products.map(\.productId))
        return Set(productIds).subtracting(listed).sorted()
    }
}

extension Catalog {
    /// What a catalog may hold: a product is listed once per app and has a type Apple defines (a subscription
    /// group only for an auto-renewable subscription); an entitlement's name is unique and every product it
    /// names is in the catalog. Refusals name the field (`products[2].type`); an entitlement no product
    /// unlocks is allowed (a grant can give it) and returned as a warning.
    public func validated(field prefix: String) throws(StoregateError) -> (catalog: Catalog, warnings: [String]) {
        do {
            let (catalog, warnings) = try validated()
            return (catalog, warnings.map { prefix + $0 })
        } catch .invalid(let field, let reason) {
            throw .invalid(field: prefix + field, reason: reason)
        }
    }

    public func validated() throws(StoregateError) -> (catalog: Catalog, warnings: [String]) {
        var catalog = self
        var seen = Set<String>()
        for (index, product) in products.enumerated() {
            let field = "products[\(index)]"
            catalog.products[index].bundleId = try Validate.bundleId(product.bundleId, field: field + ".bundleId")
            catalog.products[index].productId = try Validate.rule(.storeIdentifier, product.productId, field: field + ".productId")
            guard product.type.isKnown else {
                throw .invalid(field: field + ".type", reason: "must be one of " + ProductType.known.map(\.rawValue).joined(separator: ", "))
            }
            if let group = product.subscriptionGroup {
                guard product.type == .autoRenewableSubscription else {
                    throw .invalid(field: field + ".subscriptionGroup", reason: "is only for an Auto-Renewable Subscription")
                }
                catalog.products[index].subscriptionGroup = try Validate.text(group, field: field + ".subscriptionGroup", max: 64)
            }
            catalog.products[index].displayName = try Validate.text(product.displayName, field: field + ".displayName")
            guard seen.insert(product.bundleId + "\u{0}" + product.productId).inserted else {
                throw .invalid(field: field + ".productId", reason: "is listed twice for \(product.bundleId)")
            }
        }
        let productIds = Set(products.map(\.productId))
        var names = Set<String>()
        var warnings: [String] = []
        for (index, entitlement) in entitlements.enumerated() {
            let field = "entitlements[\(index)]"
            catalog.entitlements[index].name = try Validate.rule(.entitlementName, entitlement.name, field: field + ".name")
            guard names.insert(entitlement.name).inserted else { throw .invalid(field: field + ".name", reason: "is listed twice") }
            catalog.entitlements[index].description =
                entitlement.description.isEmpty
                ? "" : try Validate.text(entitlement.description, field: field + ".description", max: 500)
            for (position, productId) in entitlement.productIds.enumerated() where !productIds.contains(productId) {
                throw .invalid(field: field + ".productIds[\(position)]", reason: "is not a product of the catalog")
            }
            if entitlement.productIds.isEmpty { warnings.append("\(field) (\(entitlement.name)) is unlocked by no product; only a grant can give it") }
        }
        return (catalog, warnings)
    }
}
