import Foundation

/// `AdvancedCommerceRefund`, as Apple defines it.
public struct AdvancedCommerceRefund: Codable, Hashable, Sendable {
    public var refundAmount: Int64?
    public var refundDate: Timestamp?
    public var refundReason: AdvancedCommerceRefundReason?
    public var refundType: AdvancedCommerceRefundType?

    public init(
        refundAmount: Int64? = nil, refundDate: Timestamp? = nil, refundReason: AdvancedCommerceRefundReason? = nil,
        refundType: AdvancedCommerceRefundType? = nil
    ) {
        self.refundAmount = refundAmount
        self.refundDate = refundDate
        self.refundReason = refundReason
        self.refundType = refundType
    }
}
