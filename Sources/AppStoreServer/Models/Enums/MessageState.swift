/// `MessageState`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct MessageState: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let pending = MessageState(rawValue: "PENDING")
    public static let approved = MessageState(rawValue: "APPROVED")
    public static let rejected = MessageState(rawValue: "REJECTED")

    /// The values this build knows.
    public static let known: [MessageState] = [.pending, .approved, .rejected]
}
