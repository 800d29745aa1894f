/// `AccountTenure`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct AccountTenure: AppStoreValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let undeclared = AccountTenure(rawValue: 0)
    public static let zeroToThreeDays = AccountTenure(rawValue: 1)
    public static let threeDaysToTenDays = AccountTenure(rawValue: 2)
    public static let tenDaysToThirtyDays = AccountTenure(rawValue: 3)
    public static let thirtyDaysToNinetyDays = AccountTenure(rawValue: 4)
    public static let ninetyDaysToOneHundredEightyDays = AccountTenure(rawValue: 5)
    public static let oneHundredEightyDaysToThreeHundredSixtyFiveDays = AccountTenure(rawValue: 6)
    public static let greaterThanThreeHundredSixtyFiveDays = AccountTenure(rawValue: 7)

    /// The values this build knows.
    public static let known: [AccountTenure] = [
        .undeclared, .zeroToThreeDays, .threeDaysToTenDays, .tenDaysToThirtyDays, .thirtyDaysToNinetyDays, .ninetyDaysToOneHundredEightyDays,
        .oneHundredEightyDaysToThreeHundredSixtyFiveDays, .greaterThanThreeHundredSixtyFiveDays,
    ]
}
