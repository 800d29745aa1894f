/// `AdvancedCommerceRefundType`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct AdvancedCommerceRefundType: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let full = AdvancedCommerceRefundType(rawValue: "FULL")
    public static let prorated = AdvancedCommerceRefundType(rawValue: "PRORATED")
    public static let custom = AdvancedCommerceRefundType(rawValue: "CUSTOM")

    /// The values this build knows.
    public static let known: [AdvancedCommerceRefundType] = [.full, .prorated, .custom]
}
