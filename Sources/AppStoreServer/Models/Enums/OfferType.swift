/// `OfferType`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct OfferType: AppStoreValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let introductoryOffer = OfferType(rawValue: 1)
    public static let promotionalOffer = OfferType(rawValue: 2)
    public static let offerCode = OfferType(rawValue: 3)
    public static let winBackOffer = OfferType(rawValue: 4)
    /// A retention offer configured in App Store Connect and redeemed from a retention message (WWDC26; not
    /// yet in Apple's libraries, which keep 5 as an unknown value).
    public static let retentionOffer = OfferType(rawValue: 5)

    /// The values this build knows.
    public static let known: [OfferType] = [.introductoryOffer, .promotionalOffer, .offerCode, .winBackOffer, .retentionOffer]
}
