/// A JSON-RPC 2.0 error object. `message` is a concise sentence; `data` carries details such as the
/// offending field. Nothing secret belongs in either.
public struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String { "RPCError(\(code)): \(message)" }

    public static let parseErrorCode = -32700
    public static let invalidRequestCode = -32600
    public static let methodNotFoundCode = -32601
    public static let invalidParamsCode = -32602
    public static let internalErrorCode = -32603

    public static func parseError(_ reason: String) -> RPCError {
        RPCError(code: parseErrorCode, message: "Parse error", data: ["reason": .string(reason)])
    }

    public static func invalidRequest(_ reason: String, data extra: [(String, JSONValue)] = []) -> RPCError {
        RPCError(code: invalidRequestCode, message: "Invalid Request", data: .object([("reason", .string(reason))] + extra.map { (key: $0.0, value: $0.1) }))
    }

    public static func methodNotFound(_ method: String) -> RPCError {
        RPCError(code: methodNotFoundCode, message: "Method not found", data: ["method": .string(method)])
    }

    /// Invalid params, naming the field (a dotted path such as `apps[0].bundleId`).
    public static func invalidParams(field: String, reason: String) -> RPCError {
        RPCError(code: invalidParamsCode, message: "Invalid params", data: ["field": .string(field), "reason": .string(reason)])
    }

    public static let `internal` = RPCError(code: internalErrorCode, message: "Internal error")

    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("code", .number(code)), ("message", .string(message))]
        if let data { members.append(("data", data)) }
        return .object(members)
    }
}

/// Errors of a domain that know their JSON-RPC form. The engine maps any other error to -32603.
public protocol RPCErrorConvertible: Error {
    var rpcError: RPCError { get }
}

extension RPCError: RPCErrorConvertible {
    public var rpcError: RPCError { self }
}

/// A documented error: listed in the OpenRPC document under `components.errors` and per method.
public struct RPCErrorDescription: Sendable {
    public let code: Int
    public let name: String
    public let message: String

    public init(code: Int, name: String, message: String) {
        self.code = code
        self.name = name
        self.message = message
    }
}
