import Foundation
import HTTPTypes
import Hummingbird
import JSONRPC
import Logging
import NIOCore
import Storegate

/// `POST /rpc`: JSON-RPC 2.0 over HTTP. A JSON-RPC response is HTTP 200 (204 when only notifications
/// were sent), or 503 with `Retry-After` when every call it answers failed with ServiceUnavailable;
/// transport problems get 405, 413 or 415 here, 401, 403, 500 or 503 from `APIKeyAuthenticator`, with a
/// JSON-RPC error body. A request whose audit entries could not be written gets 500 (503 when the
/// database is unavailable) with a lone error: what its calls made is not sent.
struct RPCController: Sendable {
    let engine: RPCEngine<RPCCall>
    let capabilities: Capabilities
    let publicURL: PublicURL
    let maxBodyBytes: Int
    let metrics: RPCMetrics

    func addRoutes(to router: Router<StoregateRequestContext>) {
        router.group("/rpc").add(middleware: APIKeyAuthenticator(apiKeys: capabilities.apiKeys, metrics: metrics))
            .post { request, context in try await handle(request, context: context) }
        for method in [HTTPRequest.Method.get, .put, .delete, .patch, .head, .options] {
            router.on("/rpc", method: method) { _, _ in
                var response = reject(.methodNotAllowed, RPCError.invalidRequest("use POST"))
                response.headers[.allow] = "POST"
                return response
            }
        }
    }

    /// A call of an authenticated caller (`APIKeyAuthenticator` ran first).
    func handle(_ request: Request, context: StoregateRequestContext) async throws -> Response {
        guard let caller = context.identity else { return reject(.internalServerError, .internal) }
        guard let contentType = request.headers[.contentType], Self.isJSON(contentType) else {
            return reject(.unsupportedMediaType, RPCError.invalidRequest("Content-Type must be application/json"))
        }
        guard let body = try await request.collectBody(upTo: max(maxBodyBytes, StoregateRPC.largestBody)),
            body.readableBytes <= maxBodyBytes || StoregateRPC.mayBeLarge(body)
        else {
            return reject(.contentTooLarge, RPCError(ErrorCode.payloadTooLarge, data: ["maxBodyBytes": .number(maxBodyBytes)]))
        }
        var logger = context.logger
        logger[metadataKey: "tenant.id"] = .string(caller.tenantId)
        let call = RPCCall(caller: caller, logger: logger, capabilities: capabilities, publicURL: publicURL.url)
        // A batch's audit entries (its signatures') are written together, before it is answered.
        let (reply, unwritten) = await DeferredAudits.run { [engine] in await engine.reply(to: body.readableBytesView, context: call) }
        if let unwritten {
            let (response, error) = unaudited(unwritten, logger: logger)
            report(reply.calls, failedWith: error, logger: logger)
            return response
        }
        report(reply.calls, logger: logger)
        guard let answer = reply.body else { return Response(status: .noContent) }
        var headers: HTTPFields = [.contentType: "application/json"]
        var status = HTTPResponse.Status.ok
        if reply.allFailed(with: ErrorCode.serviceUnavailable.code) {
            status = .serviceUnavailable
            headers[.retryAfter] = String(ErrorCode.retryAfterSeconds)
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer)))
    }

    /// Each call in the metrics and the log, with what its caller is told: `failedWith` when the whole
    /// request was refused after its calls ran (their audit entries not written).
    private func report(_ calls: [RPCCallRecord], failedWith refusal: RPCError? = nil, logger: Logger) {
        for call in calls {
            let error = refusal ?? call.error
            metrics.record(method: call.method, error: error, duration: call.duration)
            logger.info(
                "rpc call",
                metadata: [
                    "rpc.method": .string(call.method ?? "unknown"), "rpc.outcome": .string(error.map { String($0.code) } ?? "ok"),
                    "rpc.duration_ms": .stringConvertible(
                        Double(call.duration.components.seconds) * 1000 + Double(call.duration.components.attoseconds) / 1e15),
                ])
        }
    }

    static func isJSON(_ contentType: String) -> Bool {
        // What clients send, checked without Foundation: it showed on the request path.
        if contentType.utf8.elementsEqual("application/json".utf8) { return true }
        return contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() == "application/json" } ?? false
    }

    /// The calls' audit entries could not be written: what they made (signatures) is not sent, and the
    /// whole request is refused, 503 with `Retry-After` when the database is unavailable.
    private func unaudited(_ error: any Error, logger: Logger) -> (Response, RPCError) {
        logger.error("audit entries not written; the response is withheld", metadata: ["error": "\(String(reflecting: error))"])
        let rpcError = (error as? any RPCErrorConvertible)?.rpcError ?? .internal
        if rpcError.code == ErrorCode.serviceUnavailable.code { return (RPCRejection.unavailable(rpcError, metrics: metrics), rpcError) }
        return (reject(.internalServerError, rpcError), rpcError)
    }

    private func reject(_ status: HTTPResponse.Status, _ error: RPCError) -> Response {
        RPCRejection.response(status, error, metrics: metrics)
    }
}
