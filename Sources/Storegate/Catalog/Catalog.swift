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
        /// Its level of service in its subscription group, as in App Store Connect: 1 is the highest. Tells an
        /// upgrade from a downgrade or a crossgrade in lifecycle events (Apple's subtypes go by duration).
        public var level: Int?
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
    /// The App Store commission program the tenant is in, for the estimated proceeds on lifecycle events:
    /// `standard` (30 %, 15 % for a subscription after a year of paid service) or `smallBusiness` (15 %).
    public var commission: CommissionProgram?
    /// Tax by storefront (Apple's ISO 3166-1 alpha-3 code) in basis points (1900 is 19 %), deducted from the
    /// price (which includes it) before the commission in estimated proceeds; a storefront not listed has
    /// no tax deducted.
    public var taxRates: [String: Int]?

    public init(products: [Product] = [], entitlements: [Entitlement] = [], commission: CommissionProgram? = nil, taxRates: [String: Int]? = nil) {
        self.products = products
        self.entitlements = entitlements
        self.commission = commission
        self.taxRates = taxRates
    }

    /// The product `productId` of the app `bundleId`, when listed.
    public func product(bundleId: String, productId: String) -> Product? {
        products.first { $0.bundleId == bundleId && $0.productId == productId }
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
            if let level = product.level {
                guard product.type == .autoRenewableSubscription else {
                    throw .invalid(field: field + ".level", reason: "is only for an Auto-Renewable Subscription")
                }
                guard (1...100).contains(level) else { throw .invalid(field: field + ".level", reason: "must be 1 (the highest) to 100") }
            }
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
        for (storefront, rate) in taxRates ?? [:] {
            guard storefront.count == 3, storefront.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                throw .invalid(field: "taxRates.\(storefront)", reason: "must be a storefront's ISO 3166-1 alpha-3 code, such as DEU")
            }
            guard (0...10_000).contains(rate) else { throw .invalid(field: "taxRates.\(storefront)", reason: "must be 0 to 10000 basis points") }
        }
        return (catalog, warnings)
    }
}

/// The App Store commission program a tenant is in (Apple's: the standard commission, or the Small Business
/// Program's reduced one).
public enum CommissionProgram: String, Sendable, CaseIterable, Codable, JSONSchemaType {
    case standard, smallBusiness
}
