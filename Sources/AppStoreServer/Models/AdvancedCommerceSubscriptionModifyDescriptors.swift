import Foundation

/// `AdvancedCommerceSubscriptionModifyDescriptors`, as Apple defines it.
public struct AdvancedCommerceSubscriptionModifyDescriptors: Codable, Hashable, Sendable {
    public var description: String?
    public var displayName: String?
    public var effective: AdvancedCommerceEffective

    public init(description: String? = nil, displayName: String? = nil, effective: AdvancedCommerceEffective) {
        self.description = description
        self.displayName = displayName
        self.effective = effective
    }
}
