import Foundation

/// `AdvancedCommercePriceIncreaseInfo`, as Apple defines it.
public struct AdvancedCommercePriceIncreaseInfo: Codable, Hashable, Sendable {
    public var dependentSKUs: [String]?
    public var price: Int64?
    public var status: AdvancedCommercePriceIncreaseInfoStatus?

    public init(dependentSKUs: [String]? = nil, price: Int64? = nil, status: AdvancedCommercePriceIncreaseInfoStatus? = nil) {
        self.dependentSKUs = dependentSKUs
        self.price = price
        self.status = status
    }
}
