/// `OrderLookupStatus`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct OrderLookupStatus: AppStoreValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let valid = OrderLookupStatus(rawValue: 0)
    public static let invalid = OrderLookupStatus(rawValue: 1)

    /// The values this build knows.
    public static let known: [OrderLookupStatus] = [.valid, .invalid]
}
