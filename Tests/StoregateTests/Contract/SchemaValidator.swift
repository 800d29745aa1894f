import Foundation
import JSONRPC

/// Validates a JSON value against the JSON Schema subset Storegate's OpenRPC document uses: `type`,
/// `properties`, `required`, `additionalProperties`, `items`, `enum`, `oneOf`, `pattern`, `format` (uuid,
/// date-time, uri), `minimum`, `maxLength`. An external `$ref` is accepted unchecked. Returns the violations,
/// each with its JSON path.
enum SchemaValidator {
    static func violations(of value: JSONValue, against schema: JSONValue, at path: String = "result") -> [String] {
        guard case .object = schema else { return [] }
        if schema["$ref"] != nil { return [] }
        if case .array(let options)? = schema["oneOf"] {
            let matching = options.filter { violations(of: value, against: $0, at: path).isEmpty }
            return matching.count == 1 ? [] : ["\(path): matches \(matching.count) of oneOf's \(options.count) schemas"]
        }
        var out: [String] = []
        if case .string(let type)? = schema["type"], !matches(value, type: type) {
            return ["\(path): is \(describe(value)), not \(type)"]
        }
        if case .array(let allowed)? = schema["enum"], !allowed.contains(value) {
            out.append("\(path): \(String(decoding: value.serialized, as: UTF8.self)) is not one of the enumerated values")
        }
        switch value {
        case .string(let text):
            if case .string(let pattern)? = schema["pattern"], text.range(of: pattern, options: .regularExpression) == nil {
                out.append("\(path): \"\(text)\" does not match \(pattern)")
            }
            if case .string(let format)? = schema["format"], !conforms(text, format: format) { out.append("\(path): \"\(text)\" is not a \(format)") }
            if case .number(let max)? = schema["maxLength"], let limit = Int(max), text.count > limit { out.append("\(path): longer than \(limit)") }
        case .number(let literal):
            if case .number(let min)? = schema["minimum"], let bound = Double(min), let number = Double(literal), number < bound {
                out.append("\(path): \(literal) is below \(min)")
            }
        case .array(let items):
            if let itemSchema = schema["items"] {
                for (i, item) in items.enumerated() { out += violations(of: item, against: itemSchema, at: "\(path)[\(i)]") }
            }
        case .object(let members):
            let properties: [(key: String, value: JSONValue)] = if case .object(let p)? = schema["properties"] { p } else { [] }
            if case .array(let required)? = schema["required"] {
                for case .string(let name) in required where !members.contains(where: { $0.key == name }) { out.append("\(path).\(name): is required") }
            }
            for member in members {
                if let property = properties.first(where: { $0.key == member.key })?.value {
                    out += violations(of: member.value, against: property, at: "\(path).\(member.key)")
                } else if schema["additionalProperties"] == .bool(false) {
                    out.append("\(path).\(member.key): is not in the schema")
                } else if let additional = schema["additionalProperties"], case .object = additional {
                    out += violations(of: member.value, against: additional, at: "\(path).\(member.key)")
                }
            }
        default: break
        }
        return out
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("string", .string), ("boolean", .bool), ("array", .array), ("object", .object), ("null", .null): true
        case ("number", .number): true
        case ("integer", .number(let literal)): Int64(literal) != nil
        default: false
        }
    }

    static func conforms(_ text: String, format: String) -> Bool {
        switch format {
        case "uuid": text.utf8.count == 36 && UUID(uuidString: text) != nil
        case "date-time":
            (try? Date(text, strategy: .iso8601)) != nil || (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))) != nil
        case "uri": URL(string: text)?.scheme != nil
        default: true
        }
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
