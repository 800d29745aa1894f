import Foundation

/// `AdvancedCommerceOffer`, as Apple defines it.
public struct AdvancedCommerceOffer: Codable, Hashable, Sendable {
    /// The period of the offer.
    public var period: AdvancedCommerceOfferPeriod
    /// The number of periods the offer is active.
    public var periodCount: Int32
    /// The offer price, in milliunits.
    public var price: Int64
    /// The reason for the offer.
    public var reason: AdvancedCommerceOfferReason

    public init(period: AdvancedCommerceOfferPeriod, periodCount: Int32, price: Int64, reason: AdvancedCommerceOfferReason) {
        self.period = period
        self.periodCount = periodCount
        self.price = price
        self.reason = reason
    }
}
