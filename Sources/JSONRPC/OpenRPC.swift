/// Generates the OpenRPC document from a method registry.
public enum OpenRPC {
    public static let version = "1.4.0"

    public static func document<Context>(
        title: String, version: String, description: String, registry: RPCRegistry<Context>, errors: [RPCErrorDescription]
    ) -> JSONValue {
        let methods: [JSONValue] = registry.descriptions.map { method in
            var members: [(key: String, value: JSONValue)] = [
                ("name", .string(method.name)),
                ("tags", [["name": .string(method.tag)]]),
                ("summary", .string(method.summary)),
            ]
            if !method.description.isEmpty { members.append(("description", .string(method.description))) }
            members.append(("paramStructure", "by-name"))
            members.append(
                (
                    "params",
                    .array(
                        method.params.map { param in
                            [
                                "name": .string(param.name), "description": .string(param.description), "required": .bool(param.required),
                                "schema": param.schema,
                            ]
                        }
                    )
                )
            )
            members.append(("result", ["name": .string(method.resultName), "schema": method.resultSchema]))
            if !method.errors.isEmpty {
                members.append(("errors", .array(method.errors.map { .object([("$ref", .string("#/components/errors/\($0.name)"))]) })))
            }
            if !method.examples.isEmpty {
                let pairings: [JSONValue] = method.examples.map { example in
                    [
                        "name": .string(example.name), "summary": .string(example.summary),
                        "params": .array(example.params.map { ["name": .string($0.name), "value": $0.value] }),
                        "result": ["name": .string(method.resultName), "value": example.result],
                    ]
                }
                members.append(("examples", .array(pairings)))
            }
            return .object(members)
        }
        let errorComponents: [(key: String, value: JSONValue)] = errors.map { error in
            (key: error.name, value: ["code": .number(error.code), "message": .string(error.message)])
        }
        return [
            "openrpc": .string(Self.version),
            "info": ["title": .string(title), "version": .string(version), "description": .string(description)],
            "methods": .array(methods),
            "components": ["errors": .object(errorComponents)],
        ]
    }
}

extension JSONValue {
    /// Two-space indented serialization with a trailing newline, for committed documents.
    public var prettyPrinted: String {
        var out = ""
        pretty(into: &out, indent: "")
        return out + "\n"
    }

    private func pretty(into out: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += inner
                item.pretty(into: &out, indent: inner)
                out += i < items.count - 1 ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            for (i, member) in members.enumerated() {
                out += inner + String(decoding: JSONValue.string(member.key).serialized, as: UTF8.self) + ": "
                member.value.pretty(into: &out, indent: inner)
                out += i < members.count - 1 ? ",\n" : "\n"
            }
            out += indent + "}"
        default:
            out += String(decoding: serialized, as: UTF8.self)
        }
    }
}
