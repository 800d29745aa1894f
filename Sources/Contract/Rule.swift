import Foundation

/// What a field's value must be, declared once: the JSON Schema keywords the OpenRPC document shows and the
/// check that refuses a value are both made from the same stored facts, so they cannot disagree.
/// A rule on an array applies to each element.
public struct Rule: Sendable {
    /// Said of a field that has no `///` comment of its own (a rule shared by many methods).
    public var description: String?
    var characters: Characters?
    var minLength: Int?
    var maxLength: Int?
    /// Text: no control characters, no U+FFFD, not only white space.
    var text = false
    var minimum: Int64?
    var maximum: Int64?
    /// The value taken when the field is absent (JSON Schema's `default`).
    var standard: Int64?
    public internal(set) var values: [String]?
    var format: String?
    /// An opaque JSON object's documented shape: the members it must have (each a string), more allowed.
    var requiredMembers: [String]?

    /// `prefix` then `count` characters from `set` (ranges such as `A-Z` and single characters; a `-` last
    /// stands for itself): JSON Schema's `pattern`, checked byte by byte.
    struct Characters: Sendable {
        let prefix: String
        let set: String
        let count: ClosedRange<Int>
        /// The bytes `set` admits, a bit each.
        let admitted: InlineArray<4, UInt64>

        init(prefix: String, set: String, count: ClosedRange<Int>) {
            self.prefix = prefix
            self.set = set
            self.count = count
            var admitted = InlineArray<4, UInt64>(repeating: 0)
            var bytes = Array(set.utf8)[...]
            while let first = bytes.popFirst() {
                var last = first
                if bytes.count >= 2, bytes.first == UInt8(ascii: "-") {
                    last = bytes.dropFirst().first!
                    precondition(first <= last, "character range \(set)")
                    bytes = bytes.dropFirst(2)
                }
                for byte in first...last { admitted[Int(byte >> 6)] |= 1 << (byte & 63) }
            }
            self.admitted = admitted
        }

        var pattern: String {
            let repeats = count.lowerBound == count.upperBound ? "{\(count.lowerBound)}" : "{\(count.lowerBound),\(count.upperBound)}"
            return "^\(prefix)[\(set)]\(repeats)$"
        }

        func matches(_ value: String) -> Bool {
            guard value.utf8.starts(with: prefix.utf8) else { return false }
            let rest = value.utf8.dropFirst(prefix.utf8.count)
            return count.contains(rest.count) && rest.allSatisfy { byte in admitted[Int(byte >> 6)] & (1 << (byte & 63)) != 0 }
        }
    }

    public init(description: String? = nil) { self.description = description }

    /// `prefix` followed by `count` characters of `set`, e.g. `.characters("A-Za-z0-9.-", count: 1...155)`.
    public static func characters(_ set: String, count: ClosedRange<Int>, prefix: String = "") -> Rule {
        var rule = Rule()
        rule.characters = Characters(prefix: prefix, set: set, count: count)
        return rule
    }

    /// At most `length` characters (Unicode scalars, as JSON Schema counts them).
    public static func maxLength(_ length: Int) -> Rule {
        var rule = Rule()
        rule.maxLength = length
        return rule
    }

    /// Free text of 1 to `max` characters: no control characters, not only white space.
    public static func text(max: Int) -> Rule {
        var rule = Rule.maxLength(max)
        rule.minLength = 1
        rule.text = true
        return rule
    }

    public static func minimum(_ value: Int64) -> Rule { range(value...) }

    public static func range(_ values: PartialRangeFrom<Int64>) -> Rule {
        var rule = Rule()
        rule.minimum = values.lowerBound
        return rule
    }

    public static func range(_ values: ClosedRange<Int64>) -> Rule {
        var rule = Rule()
        rule.minimum = values.lowerBound
        rule.maximum = values.upperBound
        return rule
    }

    /// From `values`, and `standard` when absent.
    public static func range(_ values: ClosedRange<Int64>, default standard: Int64) -> Rule {
        precondition(values.contains(standard), "a default outside its range")
        var rule = Rule.range(values)
        rule.standard = standard
        return rule
    }

    /// One of `values` (JSON Schema's `enum`).
    public static func oneOf(_ values: [String]) -> Rule {
        var rule = Rule()
        rule.values = values
        return rule
    }

    /// An absolute http or https URL of at most `maxLength` characters.
    public static func url(maxLength: Int) -> Rule {
        var rule = Rule.maxLength(maxLength)
        rule.format = "uri"
        return rule
    }

    /// A UUID in its text form (JSON Schema's `uuid` format), for a field kept as text.
    public static let uuid: Rule = {
        var rule = Rule()
        rule.format = "uuid"
        return rule
    }()

    /// A JSON object with these string members, and any others.
    public static func object(requiring members: [String]) -> Rule {
        var rule = Rule()
        rule.requiredMembers = members
        return rule
    }

    /// Any JSON object.
    public static let object = Rule.object(requiring: [])

    /// The same rule, with the description fields that use it share.
    public func described(_ text: String) -> Rule {
        var rule = self
        rule.description = text
        return rule
    }
}

extension Rule {
    /// Why `value` breaks the rule, or nil.
    public func violation(_ value: String) -> String? {
        if let characters, !characters.matches(value) {
            let count =
                characters.count.lowerBound == characters.count.upperBound
                ? "\(characters.count.lowerBound)" : "\(characters.count.lowerBound) to \(characters.count.upperBound)"
            return "must be \(characters.prefix.isEmpty ? "" : "'\(characters.prefix)' then ")\(count) characters of \(characters.set)"
        }
        // Printable ASCII (most identifiers) has a scalar a byte, no control character and no whitespace but
        // the space: one pass over the bytes answers what the scalars' properties answer otherwise.
        let printableASCII = (minLength != nil || maxLength != nil || text) && value.utf8.allSatisfy { (0x20...0x7E).contains($0) }
        let scalars = minLength == nil && maxLength == nil ? 0 : printableASCII ? value.utf8.count : value.unicodeScalars.count
        if let minLength, scalars < minLength { return minLength == 1 ? "must not be empty" : "must be at least \(minLength) characters" }
        if let maxLength, scalars > maxLength { return "must be at most \(maxLength) characters" }
        if text, printableASCII {
            if value.utf8.allSatisfy({ $0 == 0x20 }) { return "must not be empty" }
        } else if text {
            if value.unicodeScalars.allSatisfy(\.properties.isWhitespace) { return "must not be empty" }
            if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{FFFD}" }) {
                return "must be valid UTF-8 text without control characters"
            }
        }
        if let values, !values.contains(value) { return "must be one of \(values.joined(separator: ", "))" }
        if format == "uuid", value.utf8.count != 36 || UUID(uuidString: value) == nil { return "must be a UUID" }
        if format == "uri" {
            let scheme = value.prefix { $0 != ":" }.lowercased()
            guard ["http", "https"].contains(scheme), value.dropFirst(scheme.count).hasPrefix("://"), value.count > scheme.count + 3 else {
                return "must be an absolute http or https URL"
            }
        }
        precondition(minimum == nil && maximum == nil && requiredMembers == nil, "a numeric or object rule on a string field")
        return nil
    }

    public func violation(_ value: Int64) -> String? {
        precondition(
            characters == nil && minLength == nil && maxLength == nil && values == nil && format == nil && requiredMembers == nil, "a string rule on an integer"
        )
        switch (minimum, maximum) {
        case let (min?, max?) where !(min...max).contains(value): return "must be from \(min) to \(max)"
        case let (min?, nil) where value < min: return "must be at least \(min)"
        default: return nil
        }
    }

    public func violation(_ value: JSONValue) -> String? {
        guard let requiredMembers else { return nil }
        guard case .object = value else { return "must be an object" }
        for member in requiredMembers {
            guard case .string = value[member] else { return "must have a string member '\(member)'" }
        }
        return nil
    }

    /// The JSON Schema keywords of the rule, in the order the document has always written them.
    var stringKeywords: [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = []
        if let characters { members.append(("pattern", .string(characters.pattern))) }
        if let values { members.append(("enum", .array(values.map { .string($0) }))) }
        if let minLength { members.append(("minLength", .number(minLength))) }
        if let maxLength { members.append(("maxLength", .number(maxLength))) }
        if let format { members.append(("format", .string(format))) }
        return members
    }

    var integerKeywords: [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = []
        if let minimum { members.append(("minimum", .number(String(minimum)))) }
        if let maximum { members.append(("maximum", .number(String(maximum)))) }
        if let standard { members.append(("default", .number(String(standard)))) }
        return members
    }
}
