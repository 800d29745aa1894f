/// `RevocationReason`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct RevocationReason: AppStoreValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let refundedDueToIssue = RevocationReason(rawValue: 1)
    public static let refundedForOtherReason = RevocationReason(rawValue: 0)

    /// The values this build knows.
    public static let known: [RevocationReason] = [.refundedDueToIssue, .refundedForOtherReason]
}
