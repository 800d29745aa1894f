import Foundation

/// `AdvancedCommerceSubscriptionRevokeRequest`, as Apple defines it.
public struct AdvancedCommerceSubscriptionRevokeRequest: Codable, Hashable, Sendable {
    public var refundReason: AdvancedCommerceRefundReason
    public var refundRiskingPreference: Bool
    public var refundType: AdvancedCommerceRefundType
    public var requestInfo: AdvancedCommerceRequestInfo
    public var storefront: String?

    public init(
        refundReason: AdvancedCommerceRefundReason, refundRiskingPreference: Bool, refundType: AdvancedCommerceRefundType,
        requestInfo: AdvancedCommerceRequestInfo, storefront: String? = nil
    ) {
        self.refundReason = refundReason
        self.refundRiskingPreference = refundRiskingPreference
        self.refundType = refundType
        self.requestInfo = requestInfo
        self.storefront = storefront
    }
}
