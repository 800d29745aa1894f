import Foundation

/// `AdvancedCommerceDescriptors`, as Apple defines it.
public struct AdvancedCommerceDescriptors: Codable, Hashable, Sendable {
    /// A string you provide that describes a SKU.
    public var description: String
    /// A string with a product name that you can localize and is suitable for display to customers.
    public var displayName: String

    public init(description: String, displayName: String) {
        self.description = description
        self.displayName = displayName
    }
}
