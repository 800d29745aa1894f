/// `ImageSize`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct ImageSize: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let fullSize = ImageSize(rawValue: "FULL_SIZE")
    public static let bulletPoint = ImageSize(rawValue: "BULLET_POINT")

    /// The values this build knows.
    public static let known: [ImageSize] = [.fullSize, .bulletPoint]
}
