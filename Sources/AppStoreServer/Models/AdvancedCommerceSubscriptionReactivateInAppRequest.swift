import Foundation

/// `AdvancedCommerceSubscriptionReactivateInAppRequest`, as Apple defines it.
public struct AdvancedCommerceSubscriptionReactivateInAppRequest: Codable, Hashable, Sendable {
    public var items: [AdvancedCommerceSubscriptionReactivateItem]?
    public var requestInfo: AdvancedCommerceRequestInfo
    public var storefront: String?
    public var transactionId: String

    public init(
        items: [AdvancedCommerceSubscriptionReactivateItem]? = nil, requestInfo: AdvancedCommerceRequestInfo, storefront: String? = nil, transactionId: String
    ) {
        self.items = items
        self.requestInfo = requestInfo
        self.storefront = storefront
        self.transactionId = transactionId
    }
}
