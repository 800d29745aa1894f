/// `ExtendReasonCode`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct ExtendReasonCode: AppStoreValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let undeclared = ExtendReasonCode(rawValue: 0)
    public static let customerSatisfaction = ExtendReasonCode(rawValue: 1)
    public static let other = ExtendReasonCode(rawValue: 2)
    public static let serviceIssueOrOutage = ExtendReasonCode(rawValue: 3)

    /// The values this build knows.
    public static let known: [ExtendReasonCode] = [.undeclared, .customerSatisfaction, .other, .serviceIssueOrOutage]
}
