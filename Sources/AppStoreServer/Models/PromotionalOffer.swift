import Foundation

/// `PromotionalOffer`, as Apple defines it.
public struct PromotionalOffer: Codable, Hashable, Sendable {
    /// The identifier of the message to display to the customer, along with the promotional offer.
    public var messageIdentifier: LowercaseUUID?
    /// The promotional offer signature in V2 format.
    public var promotionalOfferSignatureV2: String?
    /// The promotional offer signature in V1 format.
    public var promotionalOfferSignatureV1: PromotionalOfferSignatureV1?

    public init(
        messageIdentifier: LowercaseUUID? = nil, promotionalOfferSignatureV2: String? = nil, promotionalOfferSignatureV1: PromotionalOfferSignatureV1? = nil
    ) {
        self.messageIdentifier = messageIdentifier
        self.promotionalOfferSignatureV2 = promotionalOfferSignatureV2
        self.promotionalOfferSignatureV1 = promotionalOfferSignatureV1
    }
}
