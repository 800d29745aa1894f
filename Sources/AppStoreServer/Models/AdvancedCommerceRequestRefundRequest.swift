import Foundation

/// `AdvancedCommerceRequestRefundRequest`, as Apple defines it.
public struct AdvancedCommerceRequestRefundRequest: Codable, Hashable, Sendable {
    /// The currency of the transaction.
    public var currency: String?
    public var items: [AdvancedCommerceRequestRefundItem]
    public var refundRiskingPreference: Bool
    public var requestInfo: AdvancedCommerceRequestInfo
    public var storefront: String?

    public init(
        currency: String? = nil, items: [AdvancedCommerceRequestRefundItem], refundRiskingPreference: Bool, requestInfo: AdvancedCommerceRequestInfo,
        storefront: String? = nil
    ) {
        self.currency = currency
        self.items = items
        self.refundRiskingPreference = refundRiskingPreference
        self.requestInfo = requestInfo
        self.storefront = storefront
    }
}
