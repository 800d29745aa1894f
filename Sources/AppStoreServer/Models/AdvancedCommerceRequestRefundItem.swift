import Foundation

/// `AdvancedCommerceRequestRefundItem`, as Apple defines it.
public struct AdvancedCommerceRequestRefundItem: Codable, Hashable, Sendable {
    /// The product identifier.
    public var SKU: String
    /// The refund amount you’re requesting for the SKU, in milliunits of the currency. Apple's Swift model has
    /// `Int32`; Apple documents an integer, and a refund of more than 2,147,483 units must not be cut short,
    /// so it is `Int64` here (as `AdvancedCommerceRefund.refundAmount` is).
    public var refundAmount: Int64?
    /// The reason for the refund request.
    public var refundReason: AdvancedCommerceRefundReason
    /// The type of refund requested.
    public var refundType: AdvancedCommerceRefundType
    /// A Boolean value that indicates whether to revoke the customer's access to the product.
    public var revoke: Bool

    public init(SKU: String, refundAmount: Int64? = nil, refundReason: AdvancedCommerceRefundReason, refundType: AdvancedCommerceRefundType, revoke: Bool) {
        self.SKU = SKU
        self.refundAmount = refundAmount
        self.refundReason = refundReason
        self.refundType = refundType
        self.revoke = revoke
    }
}
