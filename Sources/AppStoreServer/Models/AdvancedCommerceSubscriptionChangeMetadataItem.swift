import Foundation

/// `AdvancedCommerceSubscriptionChangeMetadataItem`, as Apple defines it.
public struct AdvancedCommerceSubscriptionChangeMetadataItem: Codable, Hashable, Sendable {
    /// The original SKU of the item.
    public var currentSKU: String
    /// The new description for the item.
    public var description: String?
    /// The new display name for the item.
    public var displayName: String?
    /// The string that determines when the metadata change goes into effect.
    public var effective: AdvancedCommerceEffective
    /// The new SKU of the item.
    public var SKU: String?

    public init(currentSKU: String, description: String? = nil, displayName: String? = nil, effective: AdvancedCommerceEffective, SKU: String? = nil) {
        self.currentSKU = currentSKU
        self.description = description
        self.displayName = displayName
        self.effective = effective
        self.SKU = SKU
    }
}
