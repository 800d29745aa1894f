import Foundation

/// `AdvancedCommerceInfo`, as Apple defines it.
public struct AdvancedCommerceInfo: Codable, Hashable, Sendable {
    /// The identifier of the message to display to the customer, along with the offer or switch-plan recommendation provided in advancedCommerceData.
    public var messageIdentifier: LowercaseUUID?
    /// A Base64-encoded JSON object which contains a JWS describing an offer or switch-plan recommendation.
    public var advancedCommerceData: String?

    public init(messageIdentifier: LowercaseUUID? = nil, advancedCommerceData: String? = nil) {
        self.messageIdentifier = messageIdentifier
        self.advancedCommerceData = advancedCommerceData
    }
}
