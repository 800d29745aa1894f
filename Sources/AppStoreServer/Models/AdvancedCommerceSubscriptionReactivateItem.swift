import Foundation

/// `AdvancedCommerceSubscriptionReactivateItem`, as Apple defines it.
public struct AdvancedCommerceSubscriptionReactivateItem: Codable, Hashable, Sendable {
    /// The SKU of the item to reactivate.
    public var SKU: String

    public init(SKU: String) {
        self.SKU = SKU
    }
}
