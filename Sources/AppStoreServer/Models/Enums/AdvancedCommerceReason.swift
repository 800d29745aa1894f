/// `AdvancedCommerceReason`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct AdvancedCommerceReason: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let upgrade = AdvancedCommerceReason(rawValue: "UPGRADE")
    public static let downgrade = AdvancedCommerceReason(rawValue: "DOWNGRADE")
    public static let applyOffer = AdvancedCommerceReason(rawValue: "APPLY_OFFER")

    /// The values this build knows.
    public static let known: [AdvancedCommerceReason] = [.upgrade, .downgrade, .applyOffer]
}
