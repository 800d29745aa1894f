/// `BillingPlanType`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct BillingPlanType: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let billedUpfront = BillingPlanType(rawValue: "BILLED_UPFRONT")
    public static let monthly = BillingPlanType(rawValue: "MONTHLY")

    /// The values this build knows.
    public static let known: [BillingPlanType] = [.billedUpfront, .monthly]
}
