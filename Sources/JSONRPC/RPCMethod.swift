import Foundation

extension RPCParams {
    /// Refuses the first value that breaks its field's rule, naming the field.
    public func validate() throws(RPCError) {
        if let (field, reason) = firstViolation() { throw .invalidParams(field: field, reason: reason) }
    }
}

/// Everything the OpenRPC document says about a method.
public struct RPCMethodDescription: Sendable {
    public let name: String
    public let summary: String
    public let description: String
    public let params: [RPCParam]
    public let resultName: String
    public let resultSchema: JSONValue
    public let errors: [RPCErrorDescription]
    public let tag: String
    /// Calls and their answers, shown as OpenRPC's example pairings.
    public let examples: [RPCExample]

    public init(
        _ name: String, tag: String, summary: String, description: String = "", params: [RPCParam] = [], result resultName: String,
        schema resultSchema: JSONValue, errors: [RPCErrorDescription] = [], examples: [RPCExample] = []
    ) {
        self.name = name
        self.tag = tag
        self.summary = summary
        self.description = description
        self.params = params
        self.resultName = resultName
        self.resultSchema = resultSchema
        self.errors = errors
        self.examples = examples
    }
}

/// A call and its answer, as an OpenRPC example pairing: `params` by name, and the `result`.
public struct RPCExample: Sendable {
    public let name: String
    public let summary: String
    public let params: [(name: String, value: JSONValue)]
    public let result: JSONValue

    public init(_ name: String, summary: String, params: [(name: String, value: JSONValue)], result: JSONValue) {
        self.name = name
        self.summary = summary
        self.params = params
        self.result = result
    }
}

extension RPCMethod {
    /// The same method, with example pairings in its description.
    public func with(examples: [RPCExample]) -> RPCMethod {
        var copy = self
        copy.description = RPCMethodDescription(
            description.name, tag: description.tag, summary: description.summary, description: description.description, params: description.params,
            result: description.resultName, schema: description.resultSchema, errors: description.errors, examples: examples)
        return copy
    }
}

/// A method: its description and a type-erased handler that decodes `Params` and encodes `Result`.
public struct RPCMethod<Context: Sendable>: Sendable {
    public private(set) var description: RPCMethodDescription
    let invoke: @Sendable (_ params: JSONValue, _ context: Context) async throws -> [UInt8]
    /// The type that decodes the method's parameters, for contract tests.
    public let paramsType: any RPCParams.Type
    /// Decodes and checks parameters exactly as a call does, without running the method (for contract tests).
    public let checkParams: @Sendable (_ params: JSONValue) throws -> Void

    /// A method; its parameters and result schema come from `Params` and `Result`.
    public init<Params: RPCParams, Result: RPCResult>(
        _ name: String, tag: String, summary: String, description: String = "", result resultName: String, errors: [RPCErrorDescription] = [],
        _ handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) {
        // Made once per method: a configured encoder is safe to share, and making one per call showed on the hot path.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        self.init(
            Self.description(name, tag, summary, description, resultName, errors, Params.self, Result.self), handler,
            encode: { Array(try encoder.encode($0)) })
    }

    /// A method whose result writes itself (offer signing): no `JSONEncoder` on its path.
    public init<Params: RPCParams, Result: JSONValueConvertible>(
        _ name: String, tag: String, summary: String, description: String = "", result resultName: String, errors: [RPCErrorDescription] = [],
        _ handler: @escaping @Sendable (Params, Context) async throws -> Result
    ) {
        self.init(
            Self.description(name, tag, summary, description, resultName, errors, Params.self, Result.self), handler,
            encode: { result in
                var out: [UInt8] = []
                out.reserveCapacity(1024)
                result.writeJSON(to: &out)
                return out
            })
    }

    private static func description<Params: RPCParams, Result: RPCResult>(
        _ name: String, _ tag: String, _ summary: String, _ description: String, _ resultName: String, _ errors: [RPCErrorDescription],
        _: Params.Type, _: Result.Type
    ) -> RPCMethodDescription {
        RPCMethodDescription(
            name, tag: tag, summary: summary, description: description, params: Params.parameters, result: resultName, schema: Result.schema, errors: errors)
    }

    private init<Params: RPCParams, Result: RPCResult>(
        _ description: RPCMethodDescription,
        _ handler: @escaping @Sendable (Params, Context) async throws -> Result,
        encode: @escaping @Sendable (Result) throws -> [UInt8]
    ) {
        self.description = description
        // Each parameter's check of the members within its value, by name (made once: a search of the
        // fields per member copied them on every call).
        let unknownMember = Dictionary(Params.fields.map { ($0.name, $0.unknownMember) }, uniquingKeysWith: { first, _ in first })
        let decode: @Sendable (JSONValue) throws -> Params = { params in
            var params = params
            if case .array(let positional) = params {
                guard positional.isEmpty else {
                    throw RPCError.invalidParams(field: "params", reason: "must be an object: \(description.name) takes its parameters by name")
                }
                params = .object([])
            }
            if case .object(let members) = params {
                if let unknown = members.first(where: { unknownMember[$0.key] == nil }) {
                    throw RPCError.invalidParams(field: unknown.key, reason: "is not a parameter of \(description.name)")
                }
                for member in members {
                    if let path = unknownMember[member.key]?(member.value) {
                        throw RPCError.invalidParams(field: member.key + path, reason: "is not a known field")
                    }
                }
            }
            let decoded: Params
            do {
                decoded = try JSONValueDecoder.decode(Params.self, from: params)
            } catch let error as DecodingError {
                throw RPCError(decoding: error, fields: Params.fields)
            }
            try decoded.validate()
            return decoded
        }
        self.paramsType = Params.self
        self.checkParams = { _ = try decode($0) }
        self.invoke = { params, context in try encode(try await handler(try decode(params), context)) }
    }
}

/// The method table; the OpenRPC document is generated from it.
public struct RPCRegistry<Context: Sendable>: Sendable {
    public private(set) var methods: [String: RPCMethod<Context>] = [:]
    public private(set) var order: [String] = []

    public init() {}

    public mutating func register(_ method: RPCMethod<Context>) {
        precondition(methods[method.description.name] == nil, "duplicate method \(method.description.name)")
        methods[method.description.name] = method
        order.append(method.description.name)
    }

    public var descriptions: [RPCMethodDescription] { order.compactMap { methods[$0]?.description } }
}

/// Decodes nothing, for methods without parameters.
public struct NoParams: RPCParams {
    public static let fields: [Field<Self>] = []
}

extension RPCError {
    /// A decoding error, said in the words of the method's declaration where it has them: a value outside
    /// an enumeration names the values the field documents.
    init<Root>(decoding error: DecodingError, fields: [Field<Root>]) {
        self.init(decoding: error)
        if case .dataCorrupted(let context) = error, let name = context.codingPath.first?.stringValue,
            let values = fields.first(where: { $0.name == name })?.documentedValues, case .object(var data)? = self.data,
            let index = data.firstIndex(where: { $0.key == "reason" })
        {
            data[index].value = .string("must be one of " + values.joined(separator: ", "))
            self.data = .object(data)
        }
    }

    init(decoding error: DecodingError) {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce(into: "") { out, key in
                if let index = key.intValue {
                    out += "[\(index)]"
                } else {
                    out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            self = .invalidParams(field: path(context.codingPath + [key]), reason: "is required")
        case .typeMismatch(let type, let context):
            self = .invalidParams(field: path(context.codingPath), reason: "must be \(Self.jsonTypeName(type))")
        case .valueNotFound(_, let context):
            self = .invalidParams(field: path(context.codingPath), reason: "must not be null")
        case .dataCorrupted(let context):
            self = .invalidParams(field: path(context.codingPath), reason: context.debugDescription)
        @unknown default:
            self = .invalidParams(field: "", reason: "could not be decoded")
        }
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt64.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

/// Dates in params are ISO 8601 strings, with or without fractional seconds.
enum RPCDates {
    @Sendable static func decode(_ decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "must be an ISO 8601 date-time such as 2026-11-22T10:00:00Z")
    }
}
