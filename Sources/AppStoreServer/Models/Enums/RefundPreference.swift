/// `RefundPreference`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct RefundPreference: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let decline = RefundPreference(rawValue: "DECLINE")
    public static let grantFull = RefundPreference(rawValue: "GRANT_FULL")
    public static let grantProrated = RefundPreference(rawValue: "GRANT_PRORATED")

    /// The values this build knows.
    public static let known: [RefundPreference] = [.decline, .grantFull, .grantProrated]
}
