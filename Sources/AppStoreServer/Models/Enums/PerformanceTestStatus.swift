/// `PerformanceTestStatus`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct PerformanceTestStatus: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let pending = PerformanceTestStatus(rawValue: "PENDING")
    public static let pass = PerformanceTestStatus(rawValue: "PASS")
    public static let fail = PerformanceTestStatus(rawValue: "FAIL")

    /// The values this build knows.
    public static let known: [PerformanceTestStatus] = [.pending, .pass, .fail]
}
