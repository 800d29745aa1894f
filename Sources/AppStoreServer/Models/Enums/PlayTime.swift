/// `PlayTime`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct PlayTime: AppStoreValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let undeclared = PlayTime(rawValue: 0)
    public static let zeroToFiveMinutes = PlayTime(rawValue: 1)
    public static let fiveToSixtyMinutes = PlayTime(rawValue: 2)
    public static let oneToSixHours = PlayTime(rawValue: 3)
    public static let sixHoursToTwentyFourHours = PlayTime(rawValue: 4)
    public static let oneDayToFourDays = PlayTime(rawValue: 5)
    public static let fourDaysToSixteenDays = PlayTime(rawValue: 6)
    public static let overSixteenDays = PlayTime(rawValue: 7)

    /// The values this build knows.
    public static let known: [PlayTime] = [
        .undeclared, .zeroToFiveMinutes, .fiveToSixtyMinutes, .oneToSixHours, .sixHoursToTwentyFourHours, .oneDayToFourDays, .fourDaysToSixteenDays,
        .overSixteenDays,
    ]
}
