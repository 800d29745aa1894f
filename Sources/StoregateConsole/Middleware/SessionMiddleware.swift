import Hummingbird
import Storegate

/// Reads the session cookie and puts the person signed in into the context (`identity`), in the shape of
/// hummingbird-auth's `AuthenticatorMiddleware`: without a session the request goes on without one. The
/// session is Storegate's own, its secret kept hashed in the database (`ConsoleUserService.session(secret:)`).
struct SessionMiddleware<ParentContext: RequestContext>: RouterMiddleware {
    typealias Context = ConsoleRequestContext<ParentContext>
    let users: ConsoleUserService

    func authenticate(request: Request, context: Context) async throws -> ConsoleSession? {
        guard let secret = request.cookies[ConsoleCookie.session]?.value, !secret.isEmpty else { return nil }
        return try await users.session(secret: secret)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.identity = try await authenticate(request: request, context: context)
        return try await next(request, context)
    }
}

/// Lets through a request with a person signed in (after `SessionMiddleware`); anyone else is answered
/// `otherwise`: a page sends them to sign in, a posted action says the session ended.
struct SignedInMiddleware<ParentContext: RequestContext>: RouterMiddleware {
    typealias Context = ConsoleRequestContext<ParentContext>
    let otherwise: @Sendable () -> Response

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard context.identity != nil else { return otherwise() }
        return try await next(request, context)
    }
}
