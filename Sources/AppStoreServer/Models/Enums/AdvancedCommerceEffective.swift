/// `AdvancedCommerceEffective`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct AdvancedCommerceEffective: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let immediately = AdvancedCommerceEffective(rawValue: "IMMEDIATELY")
    public static let nextBillCycle = AdvancedCommerceEffective(rawValue: "NEXT_BILL_CYCLE")

    /// The values this build knows.
    public static let known: [AdvancedCommerceEffective] = [.immediately, .nextBillCycle]
}
