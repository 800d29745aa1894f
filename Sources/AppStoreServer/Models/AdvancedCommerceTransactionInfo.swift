import Foundation

/// `AdvancedCommerceTransactionInfo`, as Apple defines it.
public struct AdvancedCommerceTransactionInfo: Codable, Hashable, Sendable {
    public var descriptors: AdvancedCommerceDescriptors?
    public var estimatedTax: Int64?
    public var items: [AdvancedCommerceTransactionItem]?
    public var period: AdvancedCommercePeriod?
    public var requestReferenceId: String?
    public var taxCode: String?
    public var taxExclusivePrice: Int64?
    public var taxRate: String?

    public init(
        descriptors: AdvancedCommerceDescriptors? = nil, estimatedTax: Int64? = nil, items: [AdvancedCommerceTransactionItem]? = nil,
        period: AdvancedCommercePeriod? = nil, requestReferenceId: String? = nil, taxCode: String? = nil, taxExclusivePrice: Int64? = nil,
        taxRate: String? = nil
    ) {
        self.descriptors = descriptors
        self.estimatedTax = estimatedTax
        self.items = items
        self.period = period
        self.requestReferenceId = requestReferenceId
        self.taxCode = taxCode
        self.taxExclusivePrice = taxExclusivePrice
        self.taxRate = taxRate
    }
}
