import Foundation

/// `@RPCParams struct …`: a method's parameters are the struct's stored properties. Each property is
/// declared once, with its `///` description and its `@Field` rule; the `RPCParams` conformance made
/// from it documents, checks and admits exactly those names, and the struct's `Decodable` decodes them.
@attached(extension, conformances: RPCParams, names: named(fields))
public macro RPCParams() = #externalMacro(module: "JSONRPCMacros", type: "RPCParamsMacro")

/// `@RPCObject(title:) struct …`: an object in a result, its JSON Schema made from its stored properties.
@attached(extension, conformances: RPCObject, names: named(fields), named(title))
public macro RPCObject(title: String? = nil) = #externalMacro(module: "JSONRPCMacros", type: "RPCObjectMacro")

/// The rule of a property of an `@RPCParams` or `@RPCObject` struct.
@attached(peer)
public macro Field(_ rule: Rule) = #externalMacro(module: "JSONRPCMacros", type: "FieldMacro")

/// One field of a params or result struct: its name, how to read it, its rule and its description.
public struct Field<Root>: Sendable {
    public let name: String
    public let rule: Rule?
    public let description: String?
    /// Whether a caller must send it (its type is not optional).
    public let required: Bool
    let schema: @Sendable (_ description: String?) -> JSONValue
    let check: @Sendable (Root) -> Violation?
    /// The field's value as JSON, for results written without `JSONEncoder`.
    let json: @Sendable (Root) -> JSONValue?

    public init<Value: JSONSchemaType>(_ name: String, _ keyPath: any KeyPath<Root, Value> & Sendable, rule: Rule?, description: String?) {
        self.name = name
        self.rule = rule
        self.description = description ?? rule?.description
        required = !(Value.self is any OptionalField.Type)
        schema = { Value.jsonSchema(rule: rule, description: $0) }
        check = { root in Value.violation(root[keyPath: keyPath], rule: rule ?? Rule()) }
        json = { root in Value.json(root[keyPath: keyPath]) }
    }

    /// The values an enumeration field (or its elements) may take, as documented.
    public var documentedValues: [String]? {
        let schema = schema(nil)
        guard case .array(let values)? = schema["enum"] ?? schema["items"]?["enum"] else { return nil }
        return values.compactMap { if case .string(let value) = $0 { value } else { nil } }
    }

    /// The field's schema with its description, as an object's property shows it.
    public var propertySchema: JSONValue { schema(description) }
}

/// A type a field can have: it knows its JSON Schema under a rule, and how a value breaks the rule.
public protocol JSONSchemaType: SendableMetatype {
    static func jsonSchema(rule: Rule?, description: String?) -> JSONValue
    /// Why `value` breaks `rule`, or nil.
    static func violation(_ value: Self, rule: Rule) -> Violation?
    /// The value as JSON, where a result is written without `JSONEncoder`; nil leaves the member out.
    static func json(_ value: Self) -> JSONValue?
}

extension JSONSchemaType {
    public static func violation(_ value: Self, rule: Rule) -> Violation? { nil }
    public static func json(_ value: Self) -> JSONValue? { preconditionFailure("\(Self.self) is not written without JSONEncoder") }
}

/// An object in a result (or a whole result): `@RPCObject` gives it `fields` and `title`.
public protocol RPCObject: RPCResult, JSONSchemaType {
    static var fields: [Field<Self>] { get }
    static var title: String? { get }
}

extension RPCObject {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue {
        var schema = Schema.object(fields.map { ($0.name, $0.propertySchema) }, required: fields.filter(\.required).map(\.name), title: title)
        if let description, case .object(var members) = schema {
            members.append(("description", .string(description)))
            schema = .object(members)
        }
        return schema
    }

    public static var schema: JSONValue { jsonSchema(rule: nil, description: nil) }

    /// The object as JSON, members sorted by name as `JSONEncoder` writes them (for `JSONValueConvertible`).
    public var jsonValue: JSONValue {
        .object(Self.fields.sorted { $0.name < $1.name }.compactMap { field in field.json(self).map { (key: field.name, value: $0) } })
    }

    public static func json(_ value: Self) -> JSONValue? { value.jsonValue }
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

    public static func json(_ value: Self) -> JSONValue? { .string(value.rawValue) }
}

/// Optional fields are not required, and their rule applies to a value that is there.
protocol OptionalField {}

extension Optional: OptionalField {}

extension Optional: JSONSchemaType where Wrapped: JSONSchemaType {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue { Wrapped.jsonSchema(rule: rule, description: description) }
    public static func violation(_ value: Self, rule: Rule) -> Violation? { value.flatMap { Wrapped.violation($0, rule: rule) } }
    public static func json(_ value: Self) -> JSONValue? { value.flatMap { Wrapped.json($0) } }
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

    public static func json(_ value: Self) -> JSONValue? { .array(value.map { Element.json($0) ?? .null }) }
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
    public static func json(_ value: String) -> JSONValue? { .string(value) }
}

extension Bool: JSONSchemaType {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue { keywords("boolean", [], description) }
    public static func json(_ value: Bool) -> JSONValue? { .bool(value) }
}

extension Date: JSONSchemaType {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue { keywords("string", [("format", "date-time")], description) }
}

extension UUID: JSONSchemaType {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue { keywords("string", [("format", "uuid")], description) }
    public static func json(_ value: UUID) -> JSONValue? { .string(value.uuidString.lowercased()) }
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
    public static func json(_ value: JSONValue) -> JSONValue? { value }
}

/// Integers: `integer` with the rule's `minimum` and `maximum`.
public protocol JSONInteger: JSONSchemaType, BinaryInteger {}

extension JSONInteger {
    public static func jsonSchema(rule: Rule?, description: String?) -> JSONValue { keywords("integer", rule?.integerKeywords ?? [], description) }
    public static func violation(_ value: Self, rule: Rule) -> Violation? { rule.violation(Int64(value)).map { Violation(reason: $0) } }
    public static func json(_ value: Self) -> JSONValue? { .number(String(value)) }
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
