/// `RevocationType`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct RevocationType: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let refundFull = RevocationType(rawValue: "REFUND_FULL")
    public static let refundProrated = RevocationType(rawValue: "REFUND_PRORATED")
    public static let familyRevoke = RevocationType(rawValue: "FAMILY_REVOKE")

    /// The values this build knows.
    public static let known: [RevocationType] = [.refundFull, .refundProrated, .familyRevoke]
}
