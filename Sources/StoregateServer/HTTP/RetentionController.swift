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
    func addRoutes(to router: Router<StoregateRequestContext>) {
        router.post(apple: .retention, maxBodyBytes: 64 * 1024) { request, context in await receive(request, context: context) }
    }

    func receive(_ request: AppleRequest, context: StoregateRequestContext) async -> Response {
        switch await rules.answer(token: request.token, body: request.body, arrival: request.arrival) {
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
        case .unknownToken: return AppleRequest.unknownToken("retention request", context: context)
        case .malformedBody: return AppleRequest.malformedBody("retention request", context: context)
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
