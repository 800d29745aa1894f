import Foundation

/// `AdvancedCommerceSubscriptionModifyRemoveItem`, as Apple defines it.
public struct AdvancedCommerceSubscriptionModifyRemoveItem: Codable, Hashable, Sendable {
    public var SKU: String

    public init(SKU: String) {
        self.SKU = SKU
    }
}
