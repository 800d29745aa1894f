import Foundation

/// What retention rules may ask of a subscription beyond its stored state, read in one statement when a
/// rule needs it: who it belongs to (their `appAccountToken`), when it was first bought, whether a
/// promotional or a retention offer renewed it, the refunds and consumption requests of its customer (or, with no
/// customer linked, of the subscription).
public struct RetentionFacts: Sendable, Equatable {
    /// The customer's token, or else the one the subscription's transactions carry.
    public var appAccountToken: UUID?
    public var firstPurchaseDate: Date?
    public var promotionalOffersRedeemed: Int
    /// Renewals with a retention offer (`offerType` 5).
    public var retentionOffersRedeemed: Int
    public var refunds: Int
    public var consumptionRequests: Int

    public init(
        appAccountToken: UUID?, firstPurchaseDate: Date?, promotionalOffersRedeemed: Int, retentionOffersRedeemed: Int = 0, refunds: Int,
        consumptionRequests: Int
    ) {
        self.appAccountToken = appAccountToken
        self.firstPurchaseDate = firstPurchaseDate
        self.promotionalOffersRedeemed = promotionalOffersRedeemed
        self.retentionOffersRedeemed = retentionOffersRedeemed
        self.refunds = refunds
        self.consumptionRequests = consumptionRequests
    }
}
