import Foundation

/// `AdvancedCommerceSubscriptionPriceChangeRequest`, as Apple defines it.
public struct AdvancedCommerceSubscriptionPriceChangeRequest: Codable, Hashable, Sendable {
    /// The currency of the prices.
    public var currency: String?
    /// An array that contains one or more SKUs and the changed price for each SKU.
    public var items: [AdvancedCommerceSubscriptionPriceChangeItem]
    /// Metadata that identifies the request.
    public var requestInfo: AdvancedCommerceRequestInfo
    /// The App Store storefront of the subscription.
    public var storefront: String?

    public init(
        currency: String? = nil, items: [AdvancedCommerceSubscriptionPriceChangeItem], requestInfo: AdvancedCommerceRequestInfo, storefront: String? = nil
    ) {
        self.currency = currency
        self.items = items
        self.requestInfo = requestInfo
        self.storefront = storefront
    }
}
