import Foundation

/// `AdvancedCommerceSubscriptionModifyInAppRequest`, as Apple defines it.
public struct AdvancedCommerceSubscriptionModifyInAppRequest: Codable, Hashable, Sendable {
    public var addItems: [AdvancedCommerceSubscriptionModifyAddItem]?
    public var changeItems: [AdvancedCommerceSubscriptionModifyChangeItem]?
    public var currency: String?
    public var descriptors: AdvancedCommerceSubscriptionModifyDescriptors?
    public var periodChange: AdvancedCommerceSubscriptionModifyPeriodChange?
    public var removeItems: [AdvancedCommerceSubscriptionModifyRemoveItem]?
    public var requestInfo: AdvancedCommerceRequestInfo
    public var retainBillingCycle: Bool
    public var storefront: String?
    public var taxCode: String?
    public var transactionId: String

    public init(
        addItems: [AdvancedCommerceSubscriptionModifyAddItem]? = nil, changeItems: [AdvancedCommerceSubscriptionModifyChangeItem]? = nil,
        currency: String? = nil, descriptors: AdvancedCommerceSubscriptionModifyDescriptors? = nil,
        periodChange: AdvancedCommerceSubscriptionModifyPeriodChange? = nil, removeItems: [AdvancedCommerceSubscriptionModifyRemoveItem]? = nil,
        requestInfo: AdvancedCommerceRequestInfo, retainBillingCycle: Bool, storefront: String? = nil, taxCode: String? = nil, transactionId: String
    ) {
        self.addItems = addItems
        self.changeItems = changeItems
        self.currency = currency
        self.descriptors = descriptors
        self.periodChange = periodChange
        self.removeItems = removeItems
        self.requestInfo = requestInfo
        self.retainBillingCycle = retainBillingCycle
        self.storefront = storefront
        self.taxCode = taxCode
        self.transactionId = transactionId
    }
}
