import Foundation

/// `AdvancedCommerceOneTimeChargeCreateRequest`, as Apple defines it.
public struct AdvancedCommerceOneTimeChargeCreateRequest: Codable, Hashable, Sendable {
    /// The currency of the price of the product.
    public var currency: String
    /// The details of the product for purchase.
    public var item: AdvancedCommerceOneTimeChargeItem
    /// The metadata to include in server requests.
    public var requestInfo: AdvancedCommerceRequestInfo
    /// The storefront for the transaction.
    public var storefront: String?
    /// The tax code for this product.
    public var taxCode: String

    public init(currency: String, item: AdvancedCommerceOneTimeChargeItem, requestInfo: AdvancedCommerceRequestInfo, storefront: String? = nil, taxCode: String)
    {
        self.currency = currency
        self.item = item
        self.requestInfo = requestInfo
        self.storefront = storefront
        self.taxCode = taxCode
    }
}
