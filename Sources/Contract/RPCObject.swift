import Synchronization

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

    /// The object as JSON, members sorted by name as `JSONEncoder` writes them (for `JSONValueConvertible`).
    public var jsonValue: JSONValue {
        let members = JSONMember<Self>.sorted
        var object: [(key: String, value: JSONValue)] = []
        object.reserveCapacity(members.count)
        for member in members {
            if let value = member.json(self) { object.append((member.name, value)) }
        }
        return .object(object)
    }

    public static func json(_ value: Self) -> JSONValue? { value.jsonValue }

    /// The object written as `jsonValue` would be, member by member, with no `JSONValue` in between.
    public static func write(_ value: Self, to out: inout [UInt8]) -> Bool {
        out.append(UInt8(ascii: "{"))
        var first = true
        for member in JSONMember<Self>.sorted {
            let start = out.count
            if !first { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: member.key)
            if member.write(value, &out) {
                first = false
            } else {
                out.removeSubrange(start...)
            }
        }
        out.append(UInt8(ascii: "}"))
        return true
    }
}

/// A member of an object as a result written without `JSONEncoder` has it: its name and its value.
struct JSONMember<Root: RPCObject>: Sendable {
    let name: String
    let json: @Sendable (Root) -> JSONValue?
    /// `"name":`, written once.
    let key: [UInt8]
    let write: @Sendable (Root, inout [UInt8]) -> Bool

    /// Each type's members in the order `JSONEncoder` writes them (by name), sorted once per type: sorting
    /// the fields on every write showed on the hot path.
    static var sorted: [Self] {
        let type = ObjectIdentifier(Root.self)
        if let found = sortedByType.withLock({ $0[type] }) as? [Self] { return found }
        let sorted = Root.fields.sorted { $0.name < $1.name }.map { field in
            var key: [UInt8] = []
            JSONValue.writeString(field.name, to: &key)
            key.append(UInt8(ascii: ":"))
            return Self(name: field.name, json: field.json, key: key, write: field.write)
        }
        sortedByType.withLock { $0[type] = sorted }
        return sorted
    }
}

private let sortedByType = Mutex<[ObjectIdentifier: any Sendable]>([:])
