import Foundation

/// `AdvancedCommerceSubscriptionCreateItem`, as Apple defines it.
public struct AdvancedCommerceSubscriptionCreateItem: Codable, Hashable, Sendable {
    public var description: String
    public var displayName: String
    public var offer: AdvancedCommerceOffer?
    public var price: Int64
    /// The item’s product identifier, which you define.
    public var SKU: String

    public init(description: String, displayName: String, offer: AdvancedCommerceOffer? = nil, price: Int64, SKU: String) {
        self.description = description
        self.displayName = displayName
        self.offer = offer
        self.price = price
        self.SKU = SKU
    }
}
