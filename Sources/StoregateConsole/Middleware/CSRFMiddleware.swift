import Hummingbird
import Storegate

/// The one check of a form that changes something (any method but GET and HEAD): its `csrf` field must be
/// the session's CSRF token for a person signed in, or for the sign-in forms, which have no session yet,
/// the token doubled in the `__Host-storegate-sign-in` cookie, which another site can neither read nor
/// set. The body is read here once, at most 16 KiB (the context's `maxUploadSize`, else 413), and kept
/// for the route to decode. A form refused is answered `refused`; nothing else runs.
struct CSRFMiddleware<ParentContext: RequestContext>: RouterMiddleware {
    typealias Context = ConsoleRequestContext<ParentContext>
    let refused: @Sendable (Request, Context) async throws -> Response

    struct Token: Decodable {
        var csrf: String?
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .get || request.method == .head { return try await next(request, context) }
        var request = request
        _ = try await request.collectBody(upTo: context.maxUploadSize)
        let posted = try await request.decode(as: Token.self, context: context).csrf
        let expected = context.identity?.csrfToken ?? request.cookies[ConsoleCookie.signIn]?.value
        guard let expected, !expected.isEmpty, Secret.same(posted, expected) else { return try await refused(request, context) }
        return try await next(request, context)
    }
}
