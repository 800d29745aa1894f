import Foundation

/// `AdvancedCommerceSubscriptionChangeMetadataDescriptors`, as Apple defines it.
public struct AdvancedCommerceSubscriptionChangeMetadataDescriptors: Codable, Hashable, Sendable {
    /// A string you provide that describes a SKU.
    public var description: String?
    /// A string with a product name that you can localize and is suitable for display to customers.
    public var displayName: String?
    /// A value that indicates when the change takes effect.
    public var effective: AdvancedCommerceEffective

    public init(description: String? = nil, displayName: String? = nil, effective: AdvancedCommerceEffective) {
        self.description = description
        self.displayName = displayName
        self.effective = effective
    }
}
