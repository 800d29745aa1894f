/// `PurchasePlatform`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct PurchasePlatform: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let iOS = PurchasePlatform(rawValue: "iOS")
    public static let macOS = PurchasePlatform(rawValue: "macOS")
    public static let tvOS = PurchasePlatform(rawValue: "tvOS")
    public static let visionOS = PurchasePlatform(rawValue: "visionOS")

    /// The values this build knows.
    public static let known: [PurchasePlatform] = [.iOS, .macOS, .tvOS, .visionOS]
}
