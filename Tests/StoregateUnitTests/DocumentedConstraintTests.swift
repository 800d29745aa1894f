import Foundation
import JSONRPC
import StoregateServer
import Testing

/// For every method, the constraints `api-spec/openrpc.json` documents are the ones enforced: values are
/// made from the document alone (not from the Swift declarations), and each value just outside a documented
/// range, length, pattern, enumeration or format is refused with -32602 naming the field, while the value
/// just inside is accepted. Checked through the same decoding and checks a call runs.
@Suite struct DocumentedConstraintTests {
    @Test(arguments: StoregateRPC.registry.descriptions.map(\.name))
    func documentedConstraintsAreEnforced(_ name: String) throws {
        let method = try #require(StoregateRPC.registry.methods[name])
        let failures = ConstraintProbe.failures(of: method)
        #expect(failures.isEmpty, "\(name):\n\(failures.joined(separator: "\n"))")
    }

    /// Every documented constraint kind is probed somewhere, so the probe is not silently skipping them.
    @Test func everyKindOfConstraintIsProbed() {
        let probed = StoregateRPC.registry.methods.values.flatMap { ConstraintProbe.edges(of: $0).map(\.kind) }
        #expect(Set(probed).isSuperset(of: ["pattern", "maxLength", "minLength", "minimum", "maximum", "enum", "uuid", "uri", "date-time", "object"]))
        #expect(probed.count > 100, "\(probed.count) edges")
    }

    /// The probe finds a method whose decoding quietly clamps a documented range instead of refusing it.
    @Test func theProbeCanFail() {
        let method = RPCMethod<Void>("lenient.count", tag: "test", summary: "Clamps.", result: "none") { (_: Lenient, _) in Lenient.Answer(ok: true) }
        let failures = ConstraintProbe.failures(of: method)
        #expect(failures.contains { $0.contains("count") && $0.contains("11") }, "\(failures)")
    }

    @RPCParams struct Lenient {
        /// 1 to 10.
        @Field(.range(1...10)) var count: Int

        init(from decoder: any Decoder) throws {
            let value = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .count)
            count = min(max(value, 1), 10)
        }

        enum CodingKeys: String, CodingKey { case count }

        @RPCObject struct Answer {
            let ok: Bool
        }
    }
}

/// Values made from a documented JSON Schema: a valid one, and pairs just inside and just outside each constraint.
enum ConstraintProbe {
    struct Edge {
        let kind: String
        let param: String
        let inside: JSONValue?
        let outside: JSONValue
    }

    static func failures<Context>(of method: RPCMethod<Context>) -> [String] {
        let params = method.description.params
        let baseline = params.filter(\.required).map { (key: $0.name, value: valid($0.schema)) }
        var failures: [String] = []
        do { try method.checkParams(.object(baseline)) } catch { failures.append("the valid baseline \(JSONValue.object(baseline)) was refused: \(error)") }
        for edge in edges(of: method) {
            func with(_ value: JSONValue) -> JSONValue { .object(baseline.filter { $0.key != edge.param } + [(key: edge.param, value: value)]) }
            if let inside = edge.inside {
                do { try method.checkParams(with(inside)) } catch {
                    failures.append("\(edge.param) (\(edge.kind)) just inside, \(inside), was refused: \(error)")
                }
            }
            do {
                try method.checkParams(with(edge.outside))
                failures.append("\(edge.param) (\(edge.kind)) just outside, \(edge.outside), was accepted")
            } catch let error as RPCError {
                let field = error.data?["field"].flatMap { if case .string(let f) = $0 { f } else { nil } } ?? ""
                if error.code != RPCError.invalidParamsCode || !(field == edge.param || field.hasPrefix(edge.param + "[") || field.hasPrefix(edge.param + "."))
                {
                    failures.append("\(edge.param) (\(edge.kind)) just outside, \(edge.outside), was refused as \(error.code) naming '\(field)'")
                }
            } catch {
                failures.append("\(edge.param) (\(edge.kind)) just outside, \(edge.outside), threw \(error)")
            }
        }
        return failures
    }

    static func edges<Context>(of method: RPCMethod<Context>) -> [Edge] {
        method.description.params.flatMap { param in
            edges(param.schema).map { Edge(kind: $0.kind, param: param.name, inside: $0.inside, outside: $0.outside) }
        }
    }

    /// A value the schema admits.
    static func valid(_ schema: JSONValue) -> JSONValue {
        if case .array(let values)? = schema["enum"], let first = values.first { return first }
        switch string(schema["type"]) {
        case "integer": return schema["minimum"] ?? 1
        case "boolean": return true
        case "array": return .array([valid(schema["items"] ?? [:])])
        case "object":
            guard case .array(let required)? = schema["required"] else { return [:] }
            return .object(
                required.map { name in
                    let key = string(name) ?? ""
                    return (key: key, value: schema["properties"]?[key].map(valid) ?? "x")
                })
        case "string":
            if let pattern = Pattern(string(schema["pattern"])) { return .string(pattern.sample(count: pattern.count.upperBound)) }
            switch string(schema["format"]) {
            case "uuid": return "20fba8a0-2b80-4a7d-a17f-85c1854727f8"
            case "uri": return "https://example.com/hook"
            case "date-time": return "2026-11-25T10:00:00Z"
            default: return "x"
            }
        default: return "x"
        }
    }

    /// Pairs just inside and just outside each constraint of the schema (of an array's items, as one-element arrays).
    static func edges(_ schema: JSONValue) -> [(kind: String, inside: JSONValue?, outside: JSONValue)] {
        var found: [(kind: String, inside: JSONValue?, outside: JSONValue)] = []
        switch string(schema["type"]) {
        case "array":
            return edges(schema["items"] ?? [:]).map { edge in (edge.kind, edge.inside.map { JSONValue.array([$0]) }, JSONValue.array([edge.outside])) }
        case "integer":
            if let minimum = number(schema["minimum"]) { found.append(("minimum", .number(minimum), .number(minimum - 1))) }
            if let maximum = number(schema["maximum"]) { found.append(("maximum", .number(maximum), .number(maximum + 1))) }
        case "object":
            if case .array(let required)? = schema["required"], let member = required.first.flatMap(string) {
                let valid = valid(schema)
                guard case .object(let members) = valid else { break }
                found.append(("object", valid, .object(members.filter { $0.key != member })))
                found.append(("object", nil, "not an object"))
            }
        case "string":
            if case .array(let values)? = schema["enum"], let first = values.first.flatMap(string) {
                found += values.map { ("enum", $0, .string("not-" + first)) }
            }
            if let pattern = Pattern(string(schema["pattern"])) {
                let upper = pattern.count.upperBound
                found.append(("pattern", .string(pattern.sample(count: upper)), .string(pattern.sample(count: upper + 1))))
                found.append(
                    (
                        "pattern", .string(pattern.sample(count: pattern.count.lowerBound)),
                        .string(pattern.prefix + " " + pattern.sample(count: upper - 1).dropFirst(pattern.prefix.count))
                    ))
                if pattern.count.lowerBound > 0 {
                    found.append(("pattern", nil, .string(pattern.sample(count: pattern.count.lowerBound - 1))))
                }
                if !pattern.prefix.isEmpty { found.append(("pattern", nil, .string(String(pattern.sample(count: upper).dropFirst(pattern.prefix.count))))) }
            }
            let format = string(schema["format"])
            if let maxLength = number(schema["maxLength"]) {
                let filler = format == "uri" ? "https://example.com/" : ""
                let inside = filler + String(repeating: "a", count: maxLength - filler.count)
                found.append(("maxLength", .string(inside), .string(inside + "a")))
            }
            if let minLength = number(schema["minLength"]) {
                found.append(("minLength", .string(String(repeating: "a", count: minLength)), .string(String(repeating: "a", count: minLength - 1))))
            }
            switch format {
            case "uuid": found.append(("uuid", "20fba8a0-2b80-4a7d-a17f-85c1854727f8", "20fba8a0-2b80-4a7d-a17f-85c1854727f"))
            case "uri": found.append(("uri", "https://example.com/hook", "example.com/hook"))
            case "date-time": found.append(("date-time", "2026-11-25T10:00:00Z", "25 November 2026"))
            default: break
            }
        default: break
        }
        return found
    }

    /// The patterns the document uses: `^prefix[set]{n}$` or `^prefix[set]{a,b}$`.
    struct Pattern {
        let prefix: String
        let first: Character
        let count: ClosedRange<Int>

        init?(_ text: String?) {
            guard let text, text.hasPrefix("^"), text.hasSuffix("$"), let open = text.firstIndex(of: "["), let close = text.firstIndex(of: "]"),
                let brace = text.firstIndex(of: "{")
            else { return nil }
            prefix = String(text[text.index(after: text.startIndex)..<open])
            first = text[text.index(after: open)]
            let bounds = text[text.index(after: brace)..<text.index(text.endIndex, offsetBy: -2)].split(separator: ",").compactMap { Int($0) }
            guard let lower = bounds.first, text[close...].hasPrefix("]{") else { return nil }
            count = lower...(bounds.last ?? lower)
        }

        func sample(count: Int) -> String { prefix + String(repeating: first, count: max(count, 0)) }
    }

    static func string(_ value: JSONValue?) -> String? { if case .string(let s)? = value { s } else { nil } }
    static func number(_ value: JSONValue?) -> Int? { if case .number(let n)? = value { Int(n) } else { nil } }
}
