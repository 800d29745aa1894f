/// `AppStoreEnvironment`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct AppStoreEnvironment: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let sandbox = AppStoreEnvironment(rawValue: "Sandbox")
    public static let production = AppStoreEnvironment(rawValue: "Production")
    public static let xcode = AppStoreEnvironment(rawValue: "Xcode")
    public static let localTesting = AppStoreEnvironment(rawValue: "LocalTesting")

    /// The values this build knows.
    public static let known: [AppStoreEnvironment] = [.sandbox, .production, .xcode, .localTesting]
}
