import Foundation

/// A UNIX time in milliseconds, as Apple's JSON carries dates. Fractional milliseconds (Xcode-signed
/// data has them) are kept, and an integral value is written back as an integer.
public struct Timestamp: Codable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let millisecondsSince1970: Double

    public init(millisecondsSince1970: Double) { self.millisecondsSince1970 = millisecondsSince1970 }
    public init(_ date: Date) { self.millisecondsSince1970 = (date.timeIntervalSince1970 * 1000).rounded() }

    public var date: Date { Date(timeIntervalSince1970: millisecondsSince1970 / 1000) }
    public var milliseconds: Int64 { Int64(millisecondsSince1970.rounded(.down)) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            millisecondsSince1970 = Double(integer)
        } else {
            millisecondsSince1970 = try container.decode(Double.self)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if millisecondsSince1970.rounded() == millisecondsSince1970, abs(millisecondsSince1970) < 9e15 {
            try container.encode(Int64(millisecondsSince1970))
        } else {
            try container.encode(millisecondsSince1970)
        }
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.millisecondsSince1970 < rhs.millisecondsSince1970 }
    public var description: String { date.formatted(.iso8601) }
}

/// A UUID that decodes in any case and is always written lowercase, as Apple's APIs expect.
public struct LowercaseUUID: Codable, Hashable, Sendable, CustomStringConvertible {
    public let uuid: UUID

    public init(_ uuid: UUID) { self.uuid = uuid }
    public init?(uuidString: String) {
        guard let uuid = UUID(uuidString: uuidString) else { return nil }
        self.uuid = uuid
    }

    public var description: String { uuid.uuidString.lowercased() }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let uuid = UUID(uuidString: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a UUID")
        }
        self.uuid = uuid
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
