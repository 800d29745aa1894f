/// `AdvancedCommercePeriod`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct AdvancedCommercePeriod: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let p1W = AdvancedCommercePeriod(rawValue: "P1W")
    public static let p1M = AdvancedCommercePeriod(rawValue: "P1M")
    public static let p2M = AdvancedCommercePeriod(rawValue: "P2M")
    public static let p3M = AdvancedCommercePeriod(rawValue: "P3M")
    public static let p6M = AdvancedCommercePeriod(rawValue: "P6M")
    public static let p1Y = AdvancedCommercePeriod(rawValue: "P1Y")

    /// The values this build knows.
    public static let known: [AdvancedCommercePeriod] = [.p1W, .p1M, .p2M, .p3M, .p6M, .p1Y]
}
