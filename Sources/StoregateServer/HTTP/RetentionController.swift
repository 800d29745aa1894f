import AppStoreServer
import Foundation
import Hummingbird
import Logging
import NIOCore
import Storegate

/// `POST /apple/retention/{token}`: Apple's Get Retention Message request for an app and environment (the
/// token of its notification URL). Answered 200 with what the app's rules choose, `{}` when they choose
/// nothing or anything fails on Storegate's side (Apple then shows the default message; it counts any
/// other status as a failure); 403 for a request Storegate does not trust, 400 for a body that is not
/// one, 404 for an unknown token.
struct RetentionController: Sendable {
    let rules: RetentionRuleService
    let maxBodyBytes = 64 * 1024

    func addRoutes(to router: Router<StoregateRequestContext>) {
        router.post("/apple/retention/:token") { request, context in try await receive(request, context: context) }
    }

    func receive(_ request: Request, context: StoregateRequestContext) async throws -> Response {
        // Apple's clock starts when it sends: the deadline counts from here, before the body is read.
        let arrival = ContinuousClock.now
        let token = try context.parameters.require("token")
        guard let body = try await request.collectBody(upTo: maxBodyBytes) else { return Response(status: .contentTooLarge) }
        switch await rules.answer(token: token, body: Data(body.readableBytesView), arrival: arrival) {
        case .answered(let reply):
            let json = ByteBuffer(bytes: (try? Self.encoder.encode(reply.body)) ?? Data("{}".utf8))
            let headers: HTTPFields = [.contentType: "application/json"]
            // The answer is recorded once it has been written, as what Apple received. The record is made in a
            // task of its own: Apple closing the connection once it has read the answer cancels this request's
            // task, and a cancelled record would be lost.
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody(contentLength: json.readableBytes) { writer in
                    do {
                        try await writer.write(json)
                        try await writer.finish(nil)
                    } catch {
                        await Task { await reply.sent(failure: "\(error)") }.value
                        throw error
                    }
                    await Task { await reply.sent() }.value
                })
        case .unknownToken:
            context.logger.warning("retention request for an unknown token")
            return Response(status: .notFound)
        case .malformedBody:
            context.logger.warning("retention request body is not {\"signedPayload\": …}")
            return Response(status: .badRequest)
        case .refused(let code, let reason):
            context.logger.warning("retention request refused", metadata: ["verification": .string(code), "reason": .string(reason)])
            return Response(status: .forbidden)
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
