import AppStoreServer
import Contract
import Foundation

/// A catalog as `catalog.set` answers: what was stored, and what is allowed but likely a mistake.
@RPCObject(title: "CatalogSet") public struct CatalogSet: Sendable {
    public let catalog: Catalog
    /// An entitlement no product unlocks (only a grant can give it), and the like.
    public let warnings: [String]
}

/// A product the tenant's transactions name that the catalog does not list: still counted by its ID.
@RPCObject(title: "UnknownProduct") public struct UnknownProduct: Sendable, Equatable {
    public let bundleId: String
    public let productId: String
    /// How many of the tenant's stored transactions are of it.
    public let transactions: Int
}

/// The tenant's catalog: read, replaced whole (validated, audited, evented as `catalog.changed`), and
/// compared with the products the tenant's data names.
public struct CatalogService: Sendable {
    let persistence: any Persistence
    let directory: AppDirectory
    /// The catalogs access answers read, per process (`CatalogCache`).
    let cache: CatalogCache

    /// The catalog; empty before one was set.
    public func catalog(tenant: Tenant) async throws -> Catalog {
        try await persistence.inTenant(tenant, .read) { try await $0.catalog.catalog() } ?? Catalog()
    }

    /// Replaces the catalog. Refused, naming the field, when it breaks a rule of `Catalog.validated` or
    /// lists a product of an app the tenant does not have.
    public func setCatalog(tenant: Tenant, _ catalog: Catalog, actor: Actor) async throws -> CatalogSet {
        let (catalog, warnings) = try catalog.validated()
        if try await persistence.inTenant(tenant, { unit in try await Self.write(catalog, actor: actor, in: unit) }) {
            // Other processes hear of it from the change feed; this one answers with the new catalog at once.
            cache.changed(tenant: tenant.id)
        }
        return CatalogSet(catalog: catalog, warnings: warnings)
    }

    /// The catalog, from this process's cache: what access answers read.
    func cached(tenant: Tenant) async throws -> Catalog {
        try await cache.catalog(tenant: tenant.id) { try await persistence.inTenant(tenant, .read) { try await $0.catalog.catalog() } }
    }

    /// Stores a validated catalog unless it is the one stored; returns whether it changed. Refuses a product
    /// of an app the tenant does not have (`field` names where the catalog came from: "" or "catalog.").
    static func write(_ catalog: Catalog, actor: Actor, field: String = "", in unit: any TenantUnit) async throws -> Bool {
        let bundleIds = Set(try await unit.apps.list().map(\.bundleId))
        for (index, product) in catalog.products.enumerated() where !bundleIds.contains(product.bundleId) {
            throw StoregateError.invalid(field: field + "products[\(index)].bundleId", reason: "is not an app of the tenant")
        }
        guard try await unit.catalog.catalog() != catalog else { return false }
        try await unit.catalog.setCatalog(catalog, by: actor.description)
        try await unit.audit(actor, "catalog.set", ["products": String(catalog.products.count), "entitlements": String(catalog.entitlements.count)])
        try await unit.events.append([try Events.catalogChanged(catalog, by: actor)])
        return true
    }

    /// The products the tenant's transactions name that the catalog does not list, by app.
    public func unknownProducts(tenant: Tenant) async throws -> [UnknownProduct] {
        let (catalog, seen) = try await persistence.inTenant(tenant, .read) { unit in
            (try await unit.catalog.catalog() ?? Catalog(), try await unit.catalog.productsSeen())
        }
        let bundles = try await directory.bundleIds(tenant: tenant, covering: seen.map(\.appId))
        let listed = Set(catalog.products.map { $0.bundleId + "\u{0}" + $0.productId })
        return seen.compactMap { appId, productId, transactions in
            let bundleId = bundles[appId] ?? ""
            return listed.contains(bundleId + "\u{0}" + productId)
                ? nil : UnknownProduct(bundleId: bundleId, productId: productId, transactions: transactions)
        }
    }
}
