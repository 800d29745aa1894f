import Foundation
import HTTPTypes
import Hummingbird
import JSONRPC
import Logging
import NIOCore
import Storegate

/// `POST /rpc`: JSON-RPC 2.0 over HTTP. A JSON-RPC response is HTTP 200 (204 when only notifications
/// were sent), or 503 with `Retry-After` when every call it answers failed with ServiceUnavailable;
/// transport problems get 401, 403, 405, 413, 415, 500 or 503 with a JSON-RPC error body.
struct RPCController: Sendable {
    let engine: RPCEngine<RPCCall>
    let services: Services
    let publicURL: PublicURL
    let maxBodyBytes: Int
    let metrics: RPCMetrics

    func addRoutes(to router: Router<StoregateRequestContext>) {
        router.post("/rpc") { request, context in try await handle(request, context: context) }
        for method in [HTTPRequest.Method.get, .put, .delete, .patch, .head, .options] {
            router.on("/rpc", method: method) { _, _ in
                var response = reject(.methodNotAllowed, RPCError.invalidRequest("use POST"))
                response.headers[.allow] = "POST"
                return response
            }
        }
    }

    func handle(_ request: Request, context: StoregateRequestContext) async throws -> Response {
        guard let contentType = request.headers[.contentType], Self.isJSON(contentType) else {
            return reject(.unsupportedMediaType, RPCError.invalidRequest("Content-Type must be application/json"))
        }
        let caller: Caller
        do {
            caller = try await authenticate(request)
        } catch let error as StoregateError {
            switch error {
            case .tenantSuspended: return reject(.forbidden, error.rpcError)
            case .unavailable(let reason):
                context.logger.warning("authentication failed: database unavailable", metadata: ["reason": .string(reason)])
                return unavailable(error.rpcError)
            default: return reject(.unauthorized, error.rpcError, extraHeaders: [.wwwAuthenticate: "Bearer"])
            }
        } catch {
            context.logger.error("authentication failed", metadata: ["error": .string(String(reflecting: error))])
            return reject(.internalServerError, .internal)
        }
        guard let body = try await request.collectBody(upTo: max(maxBodyBytes, StoregateRPC.largestBody)),
            body.readableBytes <= maxBodyBytes || StoregateRPC.mayBeLarge(body)
        else {
            return reject(.contentTooLarge, RPCError(ErrorCode.payloadTooLarge, data: ["maxBodyBytes": .number(maxBodyBytes)]))
        }
        var logger = context.logger
        logger[metadataKey: "tenant.id"] = .string(caller.tenant.id.uuidString.lowercased())
        let call = RPCCall(caller: caller, logger: logger, services: services, publicURL: publicURL.url)
        guard let reply = await engine.reply(to: body.readableBytesView, context: call) else {
            return Response(status: .noContent)
        }
        var headers: HTTPFields = [.contentType: "application/json"]
        var status = HTTPResponse.Status.ok
        if reply.allFailed(with: ErrorCode.serviceUnavailable.code) {
            status = .serviceUnavailable
            headers[.retryAfter] = String(ErrorCode.retryAfterSeconds)
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: reply.body)))
    }

    /// 503 with `Retry-After`: nothing was done, and the same request may succeed shortly.
    private func unavailable(_ error: RPCError) -> Response {
        reject(.serviceUnavailable, error, extraHeaders: [.retryAfter: String(ErrorCode.retryAfterSeconds)])
    }

    private func authenticate(_ request: Request) async throws -> Caller {
        guard let header = request.headers[.authorization] else { throw StoregateError.unauthenticated("send Authorization: Bearer <API key>") }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw StoregateError.unauthenticated("send Authorization: Bearer <API key>") }
        return try await services.apiKeys.authenticate(String(parts[1]))
    }

    static func isJSON(_ contentType: String) -> Bool {
        contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() == "application/json" } ?? false
    }

    private func reject(_ status: HTTPResponse.Status, _ error: RPCError, extraHeaders: HTTPFields = [:]) -> Response {
        metrics.recordHTTPRejection(status: status.code)
        var headers: HTTPFields = [.contentType: "application/json"]
        headers.append(contentsOf: extraHeaders)
        let body = RPCEngine<RPCCall>.errorResponse(error)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
