import Foundation

/// `RealtimeResponseBody`, as Apple defines it.
public struct RealtimeResponseBody: Codable, Hashable, Sendable {
    /// A retention message that's text-based and can include an optional image.
    public var message: Message?
    /// A retention message with a switch-plan option.
    public var alternateProduct: AlternateProduct?
    /// A retention message that includes a promotional offer.
    public var promotionalOffer: PromotionalOffer?
    /// A retention offer or switch plan option.
    public var advancedCommerceInfo: AdvancedCommerceInfo?

    public init(
        message: Message? = nil, alternateProduct: AlternateProduct? = nil, promotionalOffer: PromotionalOffer? = nil,
        advancedCommerceInfo: AdvancedCommerceInfo? = nil
    ) {
        self.message = message
        self.alternateProduct = alternateProduct
        self.promotionalOffer = promotionalOffer
        self.advancedCommerceInfo = advancedCommerceInfo
    }
}
