import Foundation

/// `AdvancedCommerceSubscriptionCreateRequest`, as Apple defines it.
public struct AdvancedCommerceSubscriptionCreateRequest: Codable, Hashable, Sendable {
    public var currency: String
    public var descriptors: AdvancedCommerceDescriptors
    public var items: [AdvancedCommerceSubscriptionCreateItem]
    public var period: AdvancedCommercePeriod
    public var previousTransactionId: String?
    public var requestInfo: AdvancedCommerceRequestInfo
    public var storefront: String?
    public var taxCode: String

    public init(
        currency: String, descriptors: AdvancedCommerceDescriptors, items: [AdvancedCommerceSubscriptionCreateItem], period: AdvancedCommercePeriod,
        previousTransactionId: String? = nil, requestInfo: AdvancedCommerceRequestInfo, storefront: String? = nil, taxCode: String
    ) {
        self.currency = currency
        self.descriptors = descriptors
        self.items = items
        self.period = period
        self.previousTransactionId = previousTransactionId
        self.requestInfo = requestInfo
        self.storefront = storefront
        self.taxCode = taxCode
    }
}
