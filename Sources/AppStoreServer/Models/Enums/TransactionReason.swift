/// `TransactionReason`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct TransactionReason: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let purchase = TransactionReason(rawValue: "PURCHASE")
    public static let renewal = TransactionReason(rawValue: "RENEWAL")

    /// The values this build knows.
    public static let known: [TransactionReason] = [.purchase, .renewal]
}
