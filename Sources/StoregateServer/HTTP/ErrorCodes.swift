import AppStoreServer
import JSONRPC
import Storegate

/// Storegate's application error codes. They are stable: clients may switch on them. Each error's
/// `data.field` names the offending field where there is one. Codes sit outside JSON-RPC's reserved
/// range (-32768…-32000); validation failures use the standard -32602 with `data.field`.
public enum ErrorCode {
    public static let unauthenticated = RPCErrorDescription(code: 1001, name: "Unauthenticated", message: "Missing, unknown or revoked API key")
    public static let tenantSuspended = RPCErrorDescription(code: 1002, name: "TenantSuspended", message: "The tenant is suspended")
    public static let notFound = RPCErrorDescription(code: 1004, name: "NotFound", message: "No such object for this tenant")
    public static let conflict = RPCErrorDescription(code: 1009, name: "Conflict", message: "The change conflicts with stored state")
    public static let keyUnavailable = RPCErrorDescription(code: 1010, name: "KeyUnavailable", message: "A stored key cannot be opened")
    public static let invalidParams = RPCErrorDescription(code: RPCError.invalidParamsCode, name: "InvalidParams", message: "Invalid params")
    public static let signedDataInvalid = RPCErrorDescription(code: 1020, name: "SignedDataInvalid", message: "Signed data failed verification")
    public static let appStoreError = RPCErrorDescription(
        code: 1030, name: "AppStoreError", message: "The App Store refused the request or could not be reached")
    public static let payloadTooLarge = RPCErrorDescription(code: 1013, name: "PayloadTooLarge", message: "The request body is too large")
    /// Retryable: the database is away or too slow. `data.retryAfterSeconds` says when to try again; over HTTP
    /// the response is 503 with `Retry-After` when every answered call failed this way.
    public static let serviceUnavailable = RPCErrorDescription(
        code: 1050, name: "ServiceUnavailable", message: "Storegate cannot reach its database; try again shortly")
    /// Seconds a client should wait before retrying a `ServiceUnavailable` call.
    public static let retryAfterSeconds = 1

    public static let all = [
        invalidParams, unauthenticated, tenantSuspended, notFound, conflict, keyUnavailable, signedDataInvalid, appStoreError, payloadTooLarge,
        serviceUnavailable,
    ]
}

extension RPCError {
    init(_ description: RPCErrorDescription, data: JSONValue? = nil) {
        self.init(code: description.code, message: description.message, data: data)
    }
}

extension StoregateError: RPCErrorConvertible {
    public var rpcError: RPCError {
        switch self {
        case .invalid(let field, let reason): .invalidParams(field: field, reason: reason)
        case .notFound(let field, _): RPCError(ErrorCode.notFound, data: ["field": .string(field)])
        case .conflict(let field, let reason): RPCError(ErrorCode.conflict, data: ["field": .string(field), "reason": .string(reason)])
        case .tenantSuspended: RPCError(ErrorCode.tenantSuspended)
        case .unauthenticated(let reason): RPCError(ErrorCode.unauthenticated, data: ["reason": .string(reason)])
        case .keyUnavailable(let keyId, _): RPCError(ErrorCode.keyUnavailable, data: ["field": "keyId", "keyId": .string(keyId)])
        case .appStore(let field, let code, let reason, let retryable):
            RPCError(
                ErrorCode.appStoreError,
                data: [
                    "field": .string(field), "appleErrorCode": code.map { .number(String($0)) } ?? .null, "reason": .string(reason),
                    "retryable": .bool(retryable),
                ])
        case .unavailable:
            RPCError(ErrorCode.serviceUnavailable, data: ["retryable": true, "retryAfterSeconds": .number(ErrorCode.retryAfterSeconds)])
        case .unverified(let field, let failure):
            RPCError(
                ErrorCode.signedDataInvalid,
                data: [
                    "field": .string(field), "verification": .string(failure.code), "reason": .string(failure.description),
                    "retryable": .bool(failure.isRetryable),
                ])
        }
    }
}
