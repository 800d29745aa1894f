/// `Status`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct Status: AppStoreValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let active = Status(rawValue: 1)
    public static let expired = Status(rawValue: 2)
    public static let billingRetry = Status(rawValue: 3)
    public static let billingGracePeriod = Status(rawValue: 4)
    public static let revoked = Status(rawValue: 5)

    /// The values this build knows.
    public static let known: [Status] = [.active, .expired, .billingRetry, .billingGracePeriod, .revoked]
}
