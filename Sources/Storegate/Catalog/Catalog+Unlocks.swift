import Foundation

extension Catalog {
    /// The names of the entitlements a product of an app unlocks, in the catalog's order: none when the
    /// catalog does not list the product for that app (it still counts by its product ID, in
    /// `entitlements.list`'s `subscriptions` and `purchases`, and `catalog.unknownProducts` reports it).
    public func entitlements(unlockedBy productId: String, in bundleId: String?) -> [String] {
        guard let bundleId, products.contains(where: { $0.bundleId == bundleId && $0.productId == productId }) else { return [] }
        return entitlements(unlockedBy: productId)
    }

    /// Whether a grant may name `entitlement`: any name while the catalog declares no entitlement (names
    /// are the tenant's own, free-form), else one the catalog declares.
    public func accepts(entitlement name: String) -> Bool { entitlements.isEmpty || has(entitlement: name) }
}
