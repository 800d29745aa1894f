import Foundation
import HTTPTypes
import Hummingbird
import JSONRPC
import Logging
import NIOCore
import Storegate

/// `POST /rpc`: JSON-RPC 2.0 over HTTP. Every JSON-RPC response is HTTP 200 (204 when only
/// notifications were sent); transport problems get 401, 403, 405, 413 or 415 with a JSON-RPC error body.
struct RPCController: Sendable {
    let engine: RPCEngine<RPCCall>
    let services: Services
    let publicURL: String
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
            if case .tenantSuspended = error { return reject(.forbidden, error.rpcError) }
            return reject(.unauthorized, error.rpcError, extraHeaders: [.wwwAuthenticate: "Bearer"])
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maxBodyBytes)
        } catch {
            return reject(.contentTooLarge, RPCError(ErrorCode.payloadTooLarge, data: ["maxBodyBytes": .number(maxBodyBytes)]))
        }
        var logger = context.logger
        logger[metadataKey: "tenant.id"] = .string(caller.tenant.id.uuidString.lowercased())
        let call = RPCCall(caller: caller, logger: logger, services: services, publicURL: publicURL)
        guard let output = await engine.respond(to: body.readableBytesView, context: call) else {
            return Response(status: .noContent)
        }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: output)))
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
