import Foundation

/// `AdvancedCommerceRenewalInfo`, as Apple defines it.
public struct AdvancedCommerceRenewalInfo: Codable, Hashable, Sendable {
    public var consistencyToken: String?
    public var descriptors: AdvancedCommerceDescriptors?
    public var items: [AdvancedCommerceRenewalItem]?
    public var period: AdvancedCommercePeriod?
    public var requestReferenceId: String?
    public var taxCode: String?

    public init(
        consistencyToken: String? = nil, descriptors: AdvancedCommerceDescriptors? = nil, items: [AdvancedCommerceRenewalItem]? = nil,
        period: AdvancedCommercePeriod? = nil, requestReferenceId: String? = nil, taxCode: String? = nil
    ) {
        self.consistencyToken = consistencyToken
        self.descriptors = descriptors
        self.items = items
        self.period = period
        self.requestReferenceId = requestReferenceId
        self.taxCode = taxCode
    }
}
