import Foundation

/// `AdvancedCommerceSubscriptionMigrateDescriptors`, as Apple defines it.
public struct AdvancedCommerceSubscriptionMigrateDescriptors: Codable, Hashable, Sendable {
    /// The description of the subscription to migrate to.
    public var description: String?
    /// The display name of the subscription to migrate to.
    public var displayName: String?

    public init(description: String? = nil, displayName: String? = nil) {
        self.description = description
        self.displayName = displayName
    }
}
