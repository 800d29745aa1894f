import Foundation

/// `AdvancedCommerceSubscriptionPriceChangeItem`, as Apple defines it.
public struct AdvancedCommerceSubscriptionPriceChangeItem: Codable, Hashable, Sendable {
    public var SKU: String
    public var price: Int64
    public var dependentSKUs: [String]?

    public init(SKU: String, price: Int64, dependentSKUs: [String]? = nil) {
        self.SKU = SKU
        self.price = price
        self.dependentSKUs = dependentSKUs
    }
}
