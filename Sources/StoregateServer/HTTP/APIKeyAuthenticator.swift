import HTTPTypes
import Hummingbird
import JSONRPC
import Logging
import NIOCore
import Storegate

/// Authenticates `/rpc` calls: `Authorization: Bearer <API key>` resolves to the tenant's `Caller`, which
/// goes into the request context for the controller. A missing or unknown key is 401 with
/// `WWW-Authenticate: Bearer`, a suspended tenant 403, a database that cannot answer 503 with
/// `Retry-After`; each with a JSON-RPC error body, and nothing after the middleware runs.
struct APIKeyAuthenticator: RouterMiddleware {
    typealias Context = StoregateRequestContext
    let apiKeys: APIKeyService
    let metrics: RPCMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        do {
            context.identity = try await apiKeys.authenticate(Self.bearerToken(request.headers[.authorization]))
        } catch let error as StoregateError {
            switch error {
            case .tenantSuspended: return RPCRejection.response(.forbidden, error.rpcError, metrics: metrics)
            case .unavailable(let reason):
                context.logger.warning("authentication failed: database unavailable", metadata: ["reason": .string(reason)])
                return RPCRejection.unavailable(error.rpcError, metrics: metrics)
            default: return RPCRejection.response(.unauthorized, error.rpcError, metrics: metrics, extraHeaders: [.wwwAuthenticate: "Bearer"])
            }
        } catch {
            context.logger.error("authentication failed", metadata: ["error": .string(String(reflecting: error))])
            return RPCRejection.response(.internalServerError, .internal, metrics: metrics)
        }
        return try await next(request, context)
    }

    /// The key from `Bearer <key>` (the scheme in any case, as RFC 9110 has it).
    static func bearerToken(_ header: String?) throws -> String {
        // What clients send, `Bearer <key>`, taken without splitting; anything else as before.
        if let header, header.utf8.count > 7, header.utf8.starts(with: "Bearer ".utf8), header.utf8.dropFirst(7).first != UInt8(ascii: " ") {
            return String(decoding: header.utf8.dropFirst(7), as: UTF8.self)
        }
        let parts = header?.split(separator: " ", maxSplits: 1) ?? []
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw StoregateError.unauthenticated("send Authorization: Bearer <API key>") }
        return String(parts[1])
    }
}

/// A refusal at `/rpc`'s door: an HTTP status with a JSON-RPC error body, counted by status.
enum RPCRejection {
    static func response(_ status: HTTPResponse.Status, _ error: RPCError, metrics: RPCMetrics, extraHeaders: HTTPFields = [:]) -> Response {
        metrics.recordHTTPRejection(status: status.code)
        var headers: HTTPFields = [.contentType: "application/json"]
        headers.append(contentsOf: extraHeaders)
        let body = RPCEngine<RPCCall>.errorResponse(error)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// 503 with `Retry-After`: nothing was done, and the same request may succeed shortly.
    static func unavailable(_ error: RPCError, metrics: RPCMetrics) -> Response {
        response(.serviceUnavailable, error, metrics: metrics, extraHeaders: [.retryAfter: String(ErrorCode.retryAfterSeconds)])
    }
}
