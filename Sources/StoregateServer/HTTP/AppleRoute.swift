import Foundation
import Hummingbird
import Logging
import Storegate

/// What Apple sends to `POST /apple/<endpoint>/:token`: the token of the app's notification URL, the body
/// (read up to the route's limit; 413 beyond it), and when the request arrived (Apple's clock starts when
/// it sends, so deadlines count from here, before the body is read).
struct AppleRequest: Sendable {
    let token: String
    let body: Data
    let arrival: ContinuousClock.Instant

    /// 404 for a token no app has; logged, since Apple was given a URL that is no longer Storegate's.
    static func unknownToken(_ what: String, context: StoregateRequestContext) -> Response {
        context.logger.warning("\(what) for an unknown token")
        return Response(status: .notFound)
    }

    /// 400 for a body that is not `{"signedPayload": …}`.
    static func malformedBody(_ what: String, context: StoregateRequestContext) -> Response {
        context.logger.warning("\(what) body is not {\"signedPayload\": …}")
        return Response(status: .badRequest)
    }
}

extension Router<StoregateRequestContext> {
    /// Routes `POST /apple/<endpoint>/:token` to `handle` with the request read.
    func post(
        apple endpoint: AppleEndpoint, maxBodyBytes: Int,
        _ handle: @escaping @Sendable (AppleRequest, StoregateRequestContext) async throws -> Response
    ) {
        post("/apple/\(endpoint.rawValue)/:token") { request, context in
            let arrival = ContinuousClock.now
            let token = try context.parameters.require("token")
            guard let body = try await request.collectBody(upTo: maxBodyBytes) else { return Response(status: .contentTooLarge) }
            return try await handle(AppleRequest(token: token, body: Data(body.readableBytesView), arrival: arrival), context)
        }
    }
}
