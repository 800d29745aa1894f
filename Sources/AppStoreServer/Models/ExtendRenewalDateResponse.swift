import Foundation

/// `ExtendRenewalDateResponse`, as Apple defines it.
public struct ExtendRenewalDateResponse: Codable, Hashable, Sendable {
    /// The original transaction identifier of a purchase.
    public var originalTransactionId: String?
    /// The unique identifier of subscription-purchase events across devices, including renewals.
    public var webOrderLineItemId: String?
    /// A Boolean value that indicates whether the subscription-renewal-date extension succeeded.
    public var success: Bool?
    /// The new subscription expiration date for a subscription-renewal extension.
    public var effectiveDate: Timestamp?

    public init(originalTransactionId: String? = nil, webOrderLineItemId: String? = nil, success: Bool? = nil, effectiveDate: Timestamp? = nil) {
        self.originalTransactionId = originalTransactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.success = success
        self.effectiveDate = effectiveDate
    }
}
