import Foundation

/// A type a field can have: it knows its JSON Schema under a rule, and how a value breaks the rule.
public protocol JSONSchemaType: SendableMetatype {
    static func jsonSchema(rule: Rule?, description: String?) -> JSONValue
    /// Why `value` breaks `rule`, or nil.
    static func violation(_ value: Self, rule: Rule) -> Violation?
    /// Appends the value as JSON to `out`, where a result is written without `JSONEncoder` (as it would
    /// write it); false, with nothing written, leaves the member out.
    static func write(_ value: Self, to out: inout [UInt8]) -> Bool
    /// The path (`.answer.productIdz`, `[2].name`) of the first member of `value` that an object within it
    /// does not have, or nil: a misspelt member is refused, never ignored.
    static func unknownMember(_ value: JSONValue) -> String?
}

extension JSONSchemaType {
    public static func violation(_ value: Self, rule: Rule) -> Violation? { nil }
    public static func unknownMember(_ value: JSONValue) -> String? { nil }
    public static func write(_ value: Self, to out: inout [UInt8]) -> Bool {
        preconditionFailure("\(Self.self) is not written without JSONEncoder")
    }
}

/// How a value breaks its field's rule: `path` below the field (`[2]` for an array's element) and why.
public struct Violation: Sendable {
    public let path: String
    public let reason: String

    public init(path: String = "", reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// A string enumeration is documented with its cases.
extension JSONSchemaType where Self: CaseIterable & RawRepresentable, RawValue == String {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue {
        keywords("string", [("enum", .array(allCases.map { .string($0.rawValue) }))], description)
    }

    @inlinable public static func write(_ value: Self, to out: inout [UInt8]) -> Bool {
        JSONValue.writeString(value.rawValue, to: &out)
        return true
    }
}

/// Optional fields are not required, and their rule applies to a value that is there.
protocol OptionalField {}

extension Optional: OptionalField {}

extension Optional: JSONSchemaType where Wrapped: JSONSchemaType {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue { Wrapped.jsonSchema(rule: rule, description: description) }
    public static func violation(_ value: Self, rule: Rule) -> Violation? { value.flatMap { Wrapped.violation($0, rule: rule) } }
    @inlinable public static func write(_ value: Self, to out: inout [UInt8]) -> Bool {
        guard let value else { return false }
        return Wrapped.write(value, to: &out)
    }
    public static func unknownMember(_ value: JSONValue) -> String? { Wrapped.unknownMember(value) }
}

extension Array: JSONSchemaType where Element: JSONSchemaType {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("type", "array"), ("items", Element.jsonSchema(rule: rule, description: nil))]
        if let description { members.append(("description", .string(description))) }
        return .object(members)
    }

    /// Names the first element that breaks the rule (the field is reported as `name[2]`).
    public static func violation(_ value: Self, rule: Rule) -> Violation? {
        for (index, element) in value.enumerated() {
            if let violation = Element.violation(element, rule: rule) { return Violation(path: "[\(index)]" + violation.path, reason: violation.reason) }
        }
        return nil
    }

    @inlinable public static func write(_ value: Self, to out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "["))
        for (index, element) in value.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            if !Element.write(element, to: &out) { out.append(contentsOf: "null".utf8) }
        }
        out.append(UInt8(ascii: "]"))
        return true
    }

    public static func unknownMember(_ value: JSONValue) -> String? {
        guard case .array(let items) = value else { return nil }
        for (index, item) in items.enumerated() {
            if let path = Element.unknownMember(item) { return "[\(index)]" + path }
        }
        return nil
    }
}

extension Dictionary: JSONSchemaType where Key == String, Value: JSONSchemaType {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("type", "object"), ("additionalProperties", Value.jsonSchema(rule: rule, description: nil))]
        if let description { members.append(("description", .string(description))) }
        return .object(members)
    }
}

extension String: JSONSchemaType {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue {
        keywords("string", rule?.stringKeywords ?? [], description)
    }

    public static func violation(_ value: String, rule: Rule) -> Violation? { rule.violation(value).map { Violation(reason: $0) } }
    @inlinable public static func write(_ value: String, to out: inout [UInt8]) -> Bool {
        JSONValue.writeString(value, to: &out)
        return true
    }
}

extension Bool: JSONSchemaType {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue { keywords("boolean", [], description) }
    @inlinable public static func write(_ value: Bool, to out: inout [UInt8]) -> Bool {
        out.append(contentsOf: (value ? "true" : "false").utf8)
        return true
    }
}

/// A fraction (a rate): `number`. Results only; no rule applies.
extension Double: JSONSchemaType {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue { keywords("number", [], description) }
    public static func write(_ value: Double, to out: inout [UInt8]) -> Bool {
        out.append(contentsOf: String(value).utf8)
        return true
    }
}

extension Date: JSONSchemaType {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue { keywords("string", [("format", "date-time")], description) }
    @inlinable public static func write(_ value: Date, to out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "\""))
        InternetDateTime.write(value, to: &out)
        out.append(UInt8(ascii: "\""))
        return true
    }
}

extension UUID: JSONSchemaType {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue { keywords("string", [("format", "uuid")], description) }
    public static func write(_ value: UUID, to out: inout [UInt8]) -> Bool {
        JSONValue.writeString(value.uuidString.lowercased(), to: &out)
        return true
    }
}

extension JSONValue: JSONSchemaType {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue {
        guard let members = rule?.requiredMembers else { return keywords(nil, [], description) }
        guard !members.isEmpty else { return keywords("object", [], description) }
        var schema: [(key: String, value: JSONValue)] = [
            ("type", "object"), ("properties", .object(members.map { (key: $0, value: ["type": "string"]) })),
            ("required", .array(members.map { .string($0) })), ("additionalProperties", true),
        ]
        if let description { schema.append(("description", .string(description))) }
        return .object(schema)
    }

    public static func violation(_ value: JSONValue, rule: Rule) -> Violation? { rule.violation(value).map { Violation(reason: $0) } }
    public static func write(_ value: JSONValue, to out: inout [UInt8]) -> Bool {
        value.write(to: &out)
        return true
    }
}

/// Integers: `integer` with the rule's `minimum` and `maximum`.
public protocol JSONInteger: JSONSchemaType, BinaryInteger {}

extension JSONInteger {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue { keywords("integer", rule?.integerKeywords ?? [], description) }
    public static func violation(_ value: Self, rule: Rule) -> Violation? { rule.violation(Int64(value)).map { Violation(reason: $0) } }
    @inlinable public static func write(_ value: Self, to out: inout [UInt8]) -> Bool {
        // Digits written in place (the least significant first, then turned round), without a `String` each.
        var magnitude = value.magnitude
        if value < 0 { out.append(UInt8(ascii: "-")) }
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out[start...].reverse()
        return true
    }
}

extension Int: JSONInteger {}
extension Int32: JSONInteger {}
extension Int64: JSONInteger {}

func keywords(_ type: String?, _ members: [(key: String, value: JSONValue)], _ description: String?) -> JSONValue {
    var schema: [(key: String, value: JSONValue)] = type.map { [("type", .string($0))] } ?? []
    schema += members
    if let description { schema.append(("description", .string(description))) }
    return .object(schema)
}

/// The JSON Schema of an object, as `@RPCObject` writes it.
public enum Schema {
    /// An object with the given properties; `required` lists the ones that must be present.
    public static func object(_ properties: [(String, JSONValue)], required: [String], title: String? = nil) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("type", "object")]
        if let title { members.append(("title", .string(title))) }
        members.append(("properties", .object(properties.map { (key: $0.0, value: $0.1) })))
        if !required.isEmpty { members.append(("required", .array(required.map { .string($0) }))) }
        members.append(("additionalProperties", false))
        return .object(members)
    }
}
