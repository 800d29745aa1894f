import Foundation

/// `AdvancedCommerceSubscriptionModifyAddItem`, as Apple defines it.
public struct AdvancedCommerceSubscriptionModifyAddItem: Codable, Hashable, Sendable {
    public var description: String
    public var displayName: String
    /// A discount offer for an auto-renewable subscription.
    public var offer: AdvancedCommerceOffer?
    public var price: Int64
    public var proratedPrice: Int64?
    public var SKU: String

    public init(description: String, displayName: String, offer: AdvancedCommerceOffer? = nil, price: Int64, proratedPrice: Int64? = nil, SKU: String) {
        self.description = description
        self.displayName = displayName
        self.offer = offer
        self.price = price
        self.proratedPrice = proratedPrice
        self.SKU = SKU
    }
}
