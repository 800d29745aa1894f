/// `AdvancedCommerceOfferPeriod`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct AdvancedCommerceOfferPeriod: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let p3D = AdvancedCommerceOfferPeriod(rawValue: "P3D")
    public static let p1W = AdvancedCommerceOfferPeriod(rawValue: "P1W")
    public static let p2W = AdvancedCommerceOfferPeriod(rawValue: "P2W")
    public static let p1M = AdvancedCommerceOfferPeriod(rawValue: "P1M")
    public static let p2M = AdvancedCommerceOfferPeriod(rawValue: "P2M")
    public static let p3M = AdvancedCommerceOfferPeriod(rawValue: "P3M")
    public static let p6M = AdvancedCommerceOfferPeriod(rawValue: "P6M")
    public static let p9M = AdvancedCommerceOfferPeriod(rawValue: "P9M")
    public static let p1Y = AdvancedCommerceOfferPeriod(rawValue: "P1Y")

    /// The values this build knows.
    public static let known: [AdvancedCommerceOfferPeriod] = [.p3D, .p1W, .p2W, .p1M, .p2M, .p3M, .p6M, .p9M, .p1Y]
}
