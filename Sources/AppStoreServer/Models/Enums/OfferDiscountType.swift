/// `OfferDiscountType`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct OfferDiscountType: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let freeTrial = OfferDiscountType(rawValue: "FREE_TRIAL")
    public static let payAsYouGo = OfferDiscountType(rawValue: "PAY_AS_YOU_GO")
    public static let payUpFront = OfferDiscountType(rawValue: "PAY_UP_FRONT")
    public static let oneTime = OfferDiscountType(rawValue: "ONE_TIME")

    /// The values this build knows.
    public static let known: [OfferDiscountType] = [.freeTrial, .payAsYouGo, .payUpFront, .oneTime]
}
