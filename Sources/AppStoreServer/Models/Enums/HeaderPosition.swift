/// `HeaderPosition`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct HeaderPosition: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let aboveBody = HeaderPosition(rawValue: "ABOVE_BODY")
    public static let aboveImage = HeaderPosition(rawValue: "ABOVE_IMAGE")

    /// The values this build knows.
    public static let known: [HeaderPosition] = [.aboveBody, .aboveImage]
}
