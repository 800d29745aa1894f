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
}

extension RPCParams {
    public static var parameters: [RPCParam] { fields.map { RPCParam($0.name, $0.description ?? "", schema: $0.schema(nil), required: $0.required) } }
}

/// A method's result, declared once: the type encodes it and carries its JSON Schema.
public protocol RPCResult: Encodable, Sendable {
    static var schema: JSONValue { get }
}

/// A result that is its own JSON value, for hot-path methods: it is written without `JSONEncoder`.
/// `jsonValue` must hold what encoding would (members sorted by name, as the encoder writes them).
public protocol JSONValueConvertible: RPCResult {
    var jsonValue: JSONValue { get }
    /// The bytes of `jsonValue`; an `@RPCObject` writes them member by member.
    func writeJSON(to out: inout [UInt8])
}

extension JSONValueConvertible {
    public func writeJSON(to out: inout [UInt8]) { jsonValue.write(to: &out) }
}

extension JSONValueConvertible where Self: RPCObject {
    public func writeJSON(to out: inout [UInt8]) { _ = Self.write(self, to: &out) }
}
