import Foundation

/// `@RPCParams struct …`: a method's parameters are the struct's stored properties. Each property is
/// declared once, with its `///` description and its `@Field` rule; the `RPCParams` conformance made
/// from it documents, checks and admits exactly those names, and the struct's `Decodable` decodes them.
@attached(extension, conformances: RPCParams, names: named(fields), named(firstViolation))
public macro RPCParams() = #externalMacro(module: "JSONRPCMacros", type: "RPCParamsMacro")

/// `@RPCObject(title:) struct …`: an object in a result, its JSON Schema made from its stored properties.
@attached(extension, conformances: RPCObject, names: named(fields), named(title), named(write))
public macro RPCObject(title: String? = nil) = #externalMacro(module: "JSONRPCMacros", type: "RPCObjectMacro")

/// The rule of a property of an `@RPCParams` or `@RPCObject` struct.
@attached(peer)
public macro Field(_ rule: Rule) = #externalMacro(module: "JSONRPCMacros", type: "FieldMacro")

/// One field of a params or result struct: its name, how to read it, its rule and its description. A
/// class: reading one from a type's `fields` to check a value retains it once (a struct's copy retained
/// each of its closures and its rule's strings, on every call).
public final class Field<Root>: Sendable {
    public let name: String
    public let rule: Rule?
    public let description: String?
    /// Whether a caller must send it (its type is not optional).
    public let required: Bool
    package let schema: @Sendable (_ description: String?) -> JSONValue
    package let check: @Sendable (Root) -> Violation?
    /// Where a value sent for the field has a member no object within it has (`JSONSchemaType.unknownMember`).
    public let unknownMember: @Sendable (JSONValue) -> String?
    /// The rule a value is checked against: the field's, or one that asks nothing.
    @usableFromInline let checkedRule: Rule

    public init<Value: JSONSchemaType>(_ name: String, _ keyPath: any KeyPath<Root, Value> & Sendable, rule: Rule?, description: String?) {
        self.name = name
        self.rule = rule
        self.description = description ?? rule?.description
        required = !(Value.self is any OptionalField.Type)
        schema = { Value.jsonSchema(rule: rule, description: $0) }
        check = { root in Value.violation(root[keyPath: keyPath], rule: rule ?? Rule()) }
        unknownMember = { Value.unknownMember($0) }
        checkedRule = rule ?? Rule()
    }

    /// The first break of the field's rule in `value`, its type known where it is asked: what the
    /// `firstViolation` `@RPCParams` makes asks of each member (`check` reaches it through a key path and
    /// the value type's metadata at run time, which showed in a status read's profile).
    @inlinable
    public func violation<Value: JSONSchemaType>(of value: Value) -> Violation? { Value.violation(value, rule: checkedRule) }

    /// The values an enumeration field (or its elements) may take, as documented.
    public var documentedValues: [String]? {
        let schema = schema(nil)
        guard case .array(let values)? = schema["enum"] ?? schema["items"]?["enum"] else { return nil }
        return values.compactMap { if case .string(let value) = $0 { value } else { nil } }
    }

    /// The field's schema with its description, as an object's property shows it.
    public var propertySchema: JSONValue { schema(description) }
}
