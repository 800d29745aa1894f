/// `ConsumptionStatus`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct ConsumptionStatus: AppStoreValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let undeclared = ConsumptionStatus(rawValue: 0)
    public static let notConsumed = ConsumptionStatus(rawValue: 1)
    public static let partiallyConsumed = ConsumptionStatus(rawValue: 2)
    public static let fullyConsumed = ConsumptionStatus(rawValue: 3)

    /// The values this build knows.
    public static let known: [ConsumptionStatus] = [.undeclared, .notConsumed, .partiallyConsumed, .fullyConsumed]
}
