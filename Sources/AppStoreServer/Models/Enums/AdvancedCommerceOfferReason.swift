/// `AdvancedCommerceOfferReason`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct AdvancedCommerceOfferReason: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let acquisition = AdvancedCommerceOfferReason(rawValue: "ACQUISITION")
    public static let winBack = AdvancedCommerceOfferReason(rawValue: "WIN_BACK")
    public static let retention = AdvancedCommerceOfferReason(rawValue: "RETENTION")

    /// The values this build knows.
    public static let known: [AdvancedCommerceOfferReason] = [.acquisition, .winBack, .retention]
}
