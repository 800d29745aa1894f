import Foundation

/// `AdvancedCommerceSubscriptionMigrateItem`, as Apple defines it.
public struct AdvancedCommerceSubscriptionMigrateItem: Codable, Hashable, Sendable {
    /// The description of the SKU.
    public var description: String
    /// The display name of the SKU.
    public var displayName: String
    /// The SKU to use for the migrated item.
    public var SKU: String

    public init(description: String, displayName: String, SKU: String) {
        self.description = description
        self.displayName = displayName
        self.SKU = SKU
    }
}
