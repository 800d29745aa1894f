import Foundation

/// The tenant's catalog, and the products the tenant's data names.
public protocol CatalogStore: Sendable {
    /// The catalog; nil before one was set.
    func catalog() async throws -> Catalog?
    /// Replaces the catalog (validated by the caller), and tells every process's `CatalogCache` as the unit commits.
    func setCatalog(_ catalog: Catalog, by actor: String) async throws
    /// Every (app, product ID) the tenant's stored transactions name, with how many transactions each.
    func productsSeen() async throws -> [(appId: UUID, productId: String, transactions: Int)]
}
