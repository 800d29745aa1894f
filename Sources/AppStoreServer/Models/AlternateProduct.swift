import Foundation

/// `AlternateProduct`, as Apple defines it.
public struct AlternateProduct: Codable, Hashable, Sendable {
    /// The message identifier of the text to display in the switch-plan retention message.
    public var messageIdentifier: LowercaseUUID?
    /// The product identifier of the subscription the retention message suggests for your customer to switch to.
    public var productId: String?
    public var billingPlanType: BillingPlanType?

    public init(messageIdentifier: LowercaseUUID? = nil, productId: String? = nil, billingPlanType: BillingPlanType? = nil) {
        self.messageIdentifier = messageIdentifier
        self.productId = productId
        self.billingPlanType = billingPlanType
    }
}
