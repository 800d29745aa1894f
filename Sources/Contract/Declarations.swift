import Foundation

/// One named parameter of a by-name method, with its JSON Schema.
public struct RPCParam: Sendable {
    public let name: String
    public let description: String
    public let schema: JSONValue
    public let required: Bool

    public init(_ name: String, _ description: String, schema: JSONValue, required: Bool = true) {
        self.name = name
        self.description = description
        self.schema = schema
        self.required = required
    }
}

/// A method's parameters, declared once (`@RPCParams`): the struct's properties are decoded by name, and
/// their `fields` document them, check their values and are the only names admitted.
public protocol RPCParams: Decodable, Sendable {
    static var fields: [Field<Self>] { get }
    /// The first value that breaks its field's rule: the field's name with the path below it, and why.
    func firstViolation() -> (field: String, reason: String)?
}

extension RPCParams {
    /// Through each field's key path; `@RPCParams` writes it member by member instead.
    public func firstViolation() -> (field: String, reason: String)? {
        for field in Self.fields {
            if let violation = field.check(self) { return (field.name + violation.path, violation.reason) }
        }
        return nil
    }

    public static var parameters: [RPCParam] { fields.map { RPCParam($0.name, $0.description ?? "", schema: $0.schema(nil), required: $0.required) } }
}

/// A method's result, declared once: the type encodes it and carries its JSON Schema.
public protocol RPCResult: Encodable, Sendable {
    static var schema: JSONValue { get }
}

/// A result written without `JSONEncoder`, for hot-path methods: an `@RPCObject` writes its members itself,
/// in the order and form the encoder would (members sorted by name).
public protocol JSONValueConvertible: RPCResult {
    func writeJSON(to out: inout [UInt8])
}

extension JSONValueConvertible where Self: RPCObject {
    public func writeJSON(to out: inout [UInt8]) { _ = Self.write(self, to: &out) }
}
