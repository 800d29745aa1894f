/// One of Apple's open sets of values (an environment, a product type, a status, a reason code, …): a value
/// this build does not know is kept as its raw value and survives a round trip; `known` lists those it does.
/// Encoded as the raw value itself.
public protocol AppStoreValue: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible
where RawValue: Codable & Hashable & Sendable & CustomStringConvertible {
    init(rawValue: RawValue)
    /// The values this build knows.
    static var known: [Self] { get }
}

extension AppStoreValue {
    public var isKnown: Bool { Self.known.contains(self) }
    public var description: String { rawValue.description }
}
