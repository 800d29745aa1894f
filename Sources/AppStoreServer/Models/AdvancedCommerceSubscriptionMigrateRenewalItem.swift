import Foundation

/// `AdvancedCommerceSubscriptionMigrateRenewalItem`, as Apple defines it.
public struct AdvancedCommerceSubscriptionMigrateRenewalItem: Codable, Hashable, Sendable {
    /// The description of the renewing SKU.
    public var description: String
    /// The display name of the renewing SKU.
    public var displayName: String
    /// The SKU that the subscription item renews to at the next renewal period.
    public var SKU: String

    public init(description: String, displayName: String, SKU: String) {
        self.description = description
        self.displayName = displayName
        self.SKU = SKU
    }
}
