/// `ExpirationIntent`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct ExpirationIntent: AppStoreValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let customerCancelled = ExpirationIntent(rawValue: 1)
    public static let billingError = ExpirationIntent(rawValue: 2)
    public static let customerDidNotConsentToPriceIncrease = ExpirationIntent(rawValue: 3)
    public static let productNotAvailable = ExpirationIntent(rawValue: 4)
    public static let other = ExpirationIntent(rawValue: 5)

    /// The values this build knows.
    public static let known: [ExpirationIntent] = [.customerCancelled, .billingError, .customerDidNotConsentToPriceIncrease, .productNotAvailable, .other]
}
