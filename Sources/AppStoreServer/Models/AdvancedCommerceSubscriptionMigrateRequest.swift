import Foundation

/// `AdvancedCommerceSubscriptionMigrateRequest`, as Apple defines it.
public struct AdvancedCommerceSubscriptionMigrateRequest: Codable, Hashable, Sendable {
    public var descriptors: AdvancedCommerceSubscriptionMigrateDescriptors
    /// An array of one or more SKUs, along with descriptions and display names, that are included in the subscription.
    public var items: [AdvancedCommerceSubscriptionMigrateItem]
    /// An optional array of subscription items that represents the items that renew at the next renewal period, if they differ from items.
    public var renewalItems: [AdvancedCommerceSubscriptionMigrateRenewalItem]?
    public var requestInfo: AdvancedCommerceRequestInfo
    public var storefront: String?
    /// Your generic product ID for an auto-renewable subscription.
    public var targetProductId: String
    public var taxCode: String

    public init(
        descriptors: AdvancedCommerceSubscriptionMigrateDescriptors, items: [AdvancedCommerceSubscriptionMigrateItem],
        renewalItems: [AdvancedCommerceSubscriptionMigrateRenewalItem]? = nil, requestInfo: AdvancedCommerceRequestInfo, storefront: String? = nil,
        targetProductId: String, taxCode: String
    ) {
        self.descriptors = descriptors
        self.items = items
        self.renewalItems = renewalItems
        self.requestInfo = requestInfo
        self.storefront = storefront
        self.targetProductId = targetProductId
        self.taxCode = taxCode
    }
}
