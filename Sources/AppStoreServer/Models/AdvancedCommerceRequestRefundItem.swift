import Foundation

/// `AdvancedCommerceRequestRefundItem`, as Apple defines it.
public struct AdvancedCommerceRequestRefundItem: Codable, Hashable, Sendable {
    /// The product identifier.
    public var SKU: String
    /// The refund amount you’re requesting for the SKU, in milliunits of the currency.
    public var refundAmount: Int32?
    /// The reason for the refund request.
    public var refundReason: AdvancedCommerceRefundReason
    /// The type of refund requested.
    public var refundType: AdvancedCommerceRefundType
    /// A Boolean value that indicates whether to revoke the customer's access to the product.
    public var revoke: Bool

    public init(SKU: String, refundAmount: Int32? = nil, refundReason: AdvancedCommerceRefundReason, refundType: AdvancedCommerceRefundType, revoke: Bool) {
        self.SKU = SKU
        self.refundAmount = refundAmount
        self.refundReason = refundReason
        self.refundType = refundType
        self.revoke = revoke
    }
}
