/// `LifetimeDollarsPurchased`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct LifetimeDollarsPurchased: AppStoreValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let undeclared = LifetimeDollarsPurchased(rawValue: 0)
    public static let zeroDollars = LifetimeDollarsPurchased(rawValue: 1)
    public static let oneCentToFortyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 2)
    public static let fiftyDollarsToNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 3)
    public static let oneHundredDollarsToFourHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 4)
    public static let fiveHundredDollarsToNineHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 5)
    public static let oneThousandDollarsToOneThousandNineHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 6)
    public static let twoThousandDollarsOrGreater = LifetimeDollarsPurchased(rawValue: 7)

    /// The values this build knows.
    public static let known: [LifetimeDollarsPurchased] = [
        .undeclared, .zeroDollars, .oneCentToFortyNineDollarsAndNinetyNineCents, .fiftyDollarsToNinetyNineDollarsAndNinetyNineCents,
        .oneHundredDollarsToFourHundredNinetyNineDollarsAndNinetyNineCents, .fiveHundredDollarsToNineHundredNinetyNineDollarsAndNinetyNineCents,
        .oneThousandDollarsToOneThousandNineHundredNinetyNineDollarsAndNinetyNineCents, .twoThousandDollarsOrGreater,
    ]
}
