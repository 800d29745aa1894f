/// `RefundPreferenceV1`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct RefundPreferenceV1: AppStoreValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let undeclared = RefundPreferenceV1(rawValue: 0)
    public static let preferGrant = RefundPreferenceV1(rawValue: 1)
    public static let preferDecline = RefundPreferenceV1(rawValue: 2)
    public static let noPreference = RefundPreferenceV1(rawValue: 3)

    /// The values this build knows.
    public static let known: [RefundPreferenceV1] = [.undeclared, .preferGrant, .preferDecline, .noPreference]
}
