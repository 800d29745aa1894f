import Foundation

/// Decodes a `Params` type from nothing, recording which top-level keys it asks for and how: `decode` (the
/// parameter is required) or `decodeIfPresent` (optional). Nested values are made from placeholders.
final class ParamsProbe: @unchecked Sendable {
    private(set) var required: Set<String> = []
    private(set) var optional: Set<String> = []

    static func keys(of type: any Decodable.Type) throws -> (required: Set<String>, optional: Set<String>) {
        let probe = ParamsProbe()
        _ = try type.init(from: ProbeDecoder(probe: probe, depth: 0))
        return (probe.required, probe.optional)
    }

    fileprivate func record(_ key: any CodingKey, required isRequired: Bool, depth: Int) {
        guard depth == 0 else { return }
        if isRequired { required.insert(key.stringValue) } else { optional.insert(key.stringValue) }
    }
}

private struct ProbeDecoder: Decoder {
    let probe: ParamsProbe
    let depth: Int
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeKeyed<Key>(probe: probe, depth: depth))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { ProbeUnkeyed() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { ProbeSingle(probe: probe, depth: depth) }
}

/// An enumeration's first case (an empty string is none of its cases).
private func firstCase<C: CaseIterable>(_ type: C.Type) -> Any { type.allCases.first as Any }

/// A placeholder of a type, where the type's own decoding would refuse an empty string or zero.
private func placeholder<T: Decodable>(_ type: T.Type, probe: ParamsProbe, depth: Int) throws -> T {
    switch type {
    case is UUID.Type: return UUID() as! T
    case is Date.Type: return Date() as! T
    case is String.Type: return "" as! T
    case is Bool.Type: return false as! T
    case let cases as any CaseIterable.Type: return firstCase(cases) as! T
    default: return try T(from: ProbeDecoder(probe: probe, depth: depth + 1))
    }
}

private struct ProbeKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: ParamsProbe
    let depth: Int
    var codingPath: [any CodingKey] = []
    var allKeys: [Key] = []

    func contains(_ key: Key) -> Bool { true }
    /// `decodeIfPresent` of a `String`, `Int` or `Bool` comes here first (the protocol's default): optional.
    func decodeNil(forKey key: Key) throws -> Bool {
        probe.record(key, required: false, depth: depth)
        return true
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        probe.record(key, required: true, depth: depth)
        return try placeholder(type, probe: probe, depth: depth)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        probe.record(key, required: false, depth: depth)
        return nil
    }
    func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: Key) throws -> KeyedDecodingContainer<N> {
        probe.record(key, required: true, depth: depth)
        return KeyedDecodingContainer(ProbeKeyed<N>(probe: probe, depth: depth + 1))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        probe.record(key, required: true, depth: depth)
        return ProbeUnkeyed()
    }
    func superDecoder() throws -> any Decoder { ProbeDecoder(probe: probe, depth: depth + 1) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ProbeDecoder(probe: probe, depth: depth + 1) }
}

private struct ProbeUnkeyed: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey] = []
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex = 0
    mutating func decodeNil() throws -> Bool { true }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "empty"))
    }
    mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) throws -> KeyedDecodingContainer<N> {
        throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "empty"))
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { self }
    mutating func superDecoder() throws -> any Decoder { throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "empty")) }
}

private struct ProbeSingle: SingleValueDecodingContainer {
    let probe: ParamsProbe
    let depth: Int
    var codingPath: [any CodingKey] = []
    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { false }
    func decode(_ type: String.Type) throws -> String { "" }
    func decode(_ type: Double.Type) throws -> Double { 0 }
    func decode(_ type: Float.Type) throws -> Float { 0 }
    func decode(_ type: Int.Type) throws -> Int { 0 }
    func decode(_ type: Int8.Type) throws -> Int8 { 0 }
    func decode(_ type: Int16.Type) throws -> Int16 { 0 }
    func decode(_ type: Int32.Type) throws -> Int32 { 0 }
    func decode(_ type: Int64.Type) throws -> Int64 { 0 }
    func decode(_ type: UInt.Type) throws -> UInt { 0 }
    func decode(_ type: UInt8.Type) throws -> UInt8 { 0 }
    func decode(_ type: UInt16.Type) throws -> UInt16 { 0 }
    func decode(_ type: UInt32.Type) throws -> UInt32 { 0 }
    func decode(_ type: UInt64.Type) throws -> UInt64 { 0 }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try placeholder(type, probe: probe, depth: depth) }
}
