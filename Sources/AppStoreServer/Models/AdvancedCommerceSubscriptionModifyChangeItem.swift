import Foundation

/// `AdvancedCommerceSubscriptionModifyChangeItem`, as Apple defines it.
public struct AdvancedCommerceSubscriptionModifyChangeItem: Codable, Hashable, Sendable {
    public var currentSKU: String
    public var description: String
    public var displayName: String
    public var effective: AdvancedCommerceEffective
    public var offer: AdvancedCommerceOffer?
    public var price: Int64
    public var proratedPrice: Int64?
    public var reason: AdvancedCommerceReason
    public var SKU: String

    public init(
        currentSKU: String, description: String, displayName: String, effective: AdvancedCommerceEffective, offer: AdvancedCommerceOffer? = nil, price: Int64,
        proratedPrice: Int64? = nil, reason: AdvancedCommerceReason, SKU: String
    ) {
        self.currentSKU = currentSKU
        self.description = description
        self.displayName = displayName
        self.effective = effective
        self.offer = offer
        self.price = price
        self.proratedPrice = proratedPrice
        self.reason = reason
        self.SKU = SKU
    }
}
