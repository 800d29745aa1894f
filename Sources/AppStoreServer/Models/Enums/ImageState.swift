/// `ImageState`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct ImageState: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let pending = ImageState(rawValue: "PENDING")
    public static let approved = ImageState(rawValue: "APPROVED")
    public static let rejected = ImageState(rawValue: "REJECTED")

    /// The values this build knows.
    public static let known: [ImageState] = [.pending, .approved, .rejected]
}
