/// `AdvancedCommercePriceIncreaseInfoStatus`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct AdvancedCommercePriceIncreaseInfoStatus: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let scheduled = AdvancedCommercePriceIncreaseInfoStatus(rawValue: "SCHEDULED")
    public static let pending = AdvancedCommercePriceIncreaseInfoStatus(rawValue: "PENDING")
    public static let accepted = AdvancedCommercePriceIncreaseInfoStatus(rawValue: "ACCEPTED")

    /// The values this build knows.
    public static let known: [AdvancedCommercePriceIncreaseInfoStatus] = [.scheduled, .pending, .accepted]
}
