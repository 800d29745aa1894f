/// `Platform`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct Platform: AppStoreValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let undeclared = Platform(rawValue: 0)
    public static let apple = Platform(rawValue: 1)
    public static let nonApple = Platform(rawValue: 2)

    /// The values this build knows.
    public static let known: [Platform] = [.undeclared, .apple, .nonApple]
}
