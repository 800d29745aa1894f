import Foundation

/// `AdvancedCommerceOneTimeChargeItem`, as Apple defines it.
public struct AdvancedCommerceOneTimeChargeItem: Codable, Hashable, Sendable {
    /// A description of the product that doesn’t display to customers.
    public var description: String
    /// The product name, suitable for display to customers.
    public var displayName: String
    /// The product identifier.
    public var SKU: String
    /// The price, in milliunits of the currency, of the one-time charge product.
    public var price: Int64

    public init(description: String, displayName: String, SKU: String, price: Int64) {
        self.description = description
        self.displayName = displayName
        self.SKU = SKU
        self.price = price
    }
}
