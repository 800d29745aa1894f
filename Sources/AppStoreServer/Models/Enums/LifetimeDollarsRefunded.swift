/// `LifetimeDollarsRefunded`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct LifetimeDollarsRefunded: AppStoreValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let undeclared = LifetimeDollarsRefunded(rawValue: 0)
    public static let zeroDollars = LifetimeDollarsRefunded(rawValue: 1)
    public static let oneCentToFortyNineDollarsAndNinetyNineCents = LifetimeDollarsRefunded(rawValue: 2)
    public static let fiftyDollarsToNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsRefunded(rawValue: 3)
    public static let oneHundredDollarsToFourHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsRefunded(rawValue: 4)
    public static let fiveHundredDollarsToNineHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsRefunded(rawValue: 5)
    public static let oneThousandDollarsToOneThousandNineHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsRefunded(rawValue: 6)
    public static let twoThousandDollarsOrGreater = LifetimeDollarsRefunded(rawValue: 7)

    /// The values this build knows.
    public static let known: [LifetimeDollarsRefunded] = [
        .undeclared, .zeroDollars, .oneCentToFortyNineDollarsAndNinetyNineCents, .fiftyDollarsToNinetyNineDollarsAndNinetyNineCents,
        .oneHundredDollarsToFourHundredNinetyNineDollarsAndNinetyNineCents, .fiveHundredDollarsToNineHundredNinetyNineDollarsAndNinetyNineCents,
        .oneThousandDollarsToOneThousandNineHundredNinetyNineDollarsAndNinetyNineCents, .twoThousandDollarsOrGreater,
    ]
}
