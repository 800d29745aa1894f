/// `UserStatus`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct UserStatus: AppStoreValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let undeclared = UserStatus(rawValue: 0)
    public static let active = UserStatus(rawValue: 1)
    public static let suspended = UserStatus(rawValue: 2)
    public static let terminated = UserStatus(rawValue: 3)
    public static let limitedAccess = UserStatus(rawValue: 4)

    /// The values this build knows.
    public static let known: [UserStatus] = [.undeclared, .active, .suspended, .terminated, .limitedAccess]
}
