/// An object in a result (or a whole result): `@RPCObject` gives it `fields`, `title` and `write`.
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

    public static func unknownMember(_ value: JSONValue) -> String? {
        guard case .object(let members) = value else { return nil }
        for member in members {
            guard let field = fields.first(where: { $0.name == member.key }) else { return "." + member.key }
            if let path = field.unknownMember(member.value) { return "." + member.key + path }
        }
        return nil
    }

    /// An object in params is checked as its schema documents it: the first member that breaks its rule,
    /// named below the field (`rules[2].answer.productId`).
    public static func violation(_ value: Self, rule: Rule) -> Violation? {
        for field in fields {
            if let violation = field.check(value) { return Violation(path: "." + field.name + violation.path, reason: violation.reason) }
        }
        return nil
    }
}

/// One member of an object, for the `write` `@RPCObject` makes: a comma before all but the first written,
/// `"name":` (`key`) and the value; a value that writes nothing (nil) leaves the member out.
@inlinable
public func writeMember<Value: JSONSchemaType>(_ key: StaticString, _ value: Value, to out: inout [UInt8], first: inout Bool) {
    let start = out.count
    if !first { out.append(UInt8(ascii: ",")) }
    key.withUTF8Buffer { out.append(contentsOf: $0) }
    if Value.write(value, to: &out) {
        first = false
    } else {
        out.removeSubrange(start...)
    }
}
