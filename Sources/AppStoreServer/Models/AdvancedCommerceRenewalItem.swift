import Foundation

/// `AdvancedCommerceRenewalItem`, as Apple defines it.
public struct AdvancedCommerceRenewalItem: Codable, Hashable, Sendable {
    public var SKU: String?
    public var description: String?
    public var displayName: String?
    public var offer: AdvancedCommerceOffer?
    public var price: Int64?
    public var priceIncreaseInfo: AdvancedCommercePriceIncreaseInfo?

    public init(
        SKU: String? = nil, description: String? = nil, displayName: String? = nil, offer: AdvancedCommerceOffer? = nil, price: Int64? = nil,
        priceIncreaseInfo: AdvancedCommercePriceIncreaseInfo? = nil
    ) {
        self.SKU = SKU
        self.description = description
        self.displayName = displayName
        self.offer = offer
        self.price = price
        self.priceIncreaseInfo = priceIncreaseInfo
    }
}
