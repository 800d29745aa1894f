import AppStoreServer

extension OfferType {
    /// The offer type by name, as status and events give it beside Apple's number: introductoryOffer,
    /// promotionalOffer, offerCode, winBackOffer, retentionOffer (5, WWDC26: a retention offer from App Store
    /// Connect); nil for a number Apple added since.
    public var name: String? {
        switch self {
        case .introductoryOffer: "introductoryOffer"
        case .promotionalOffer: "promotionalOffer"
        case .offerCode: "offerCode"
        case .winBackOffer: "winBackOffer"
        case .retentionOffer: "retentionOffer"
        default: nil
        }
    }
}
