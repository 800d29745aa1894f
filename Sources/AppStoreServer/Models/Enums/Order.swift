/// `Order`: the sort order of transaction history, `ASCENDING` (the default) or `DESCENDING`.
public struct Order: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let ascending = Order(rawValue: "ASCENDING")
    public static let descending = Order(rawValue: "DESCENDING")

    /// The values this build knows.
    public static let known: [Order] = [.ascending, .descending]
}
