import Foundation

/// `AdvancedCommerceSubscriptionChangeMetadataRequest`, as Apple defines it.
public struct AdvancedCommerceSubscriptionChangeMetadataRequest: Codable, Hashable, Sendable {
    public var descriptors: AdvancedCommerceSubscriptionChangeMetadataDescriptors?
    public var items: [AdvancedCommerceSubscriptionChangeMetadataItem]?
    public var requestInfo: AdvancedCommerceRequestInfo
    public var storefront: String?
    public var taxCode: String?

    public init(
        descriptors: AdvancedCommerceSubscriptionChangeMetadataDescriptors? = nil, items: [AdvancedCommerceSubscriptionChangeMetadataItem]? = nil,
        requestInfo: AdvancedCommerceRequestInfo, storefront: String? = nil, taxCode: String? = nil
    ) {
        self.descriptors = descriptors
        self.items = items
        self.requestInfo = requestInfo
        self.storefront = storefront
        self.taxCode = taxCode
    }
}
