import Hummingbird
import HummingbirdAuth
import Storegate

/// Reads the session cookie and puts the person signed in into the context (`identity`): hummingbird-auth's
/// `AuthenticatorMiddleware`, so without a session the request goes on without one. The
/// session is Storegate's own, its secret kept hashed in the database (`ConsoleUserService.session(secret:)`).
struct SessionMiddleware<ParentContext: RequestContext>: AuthenticatorMiddleware {
    typealias Context = ConsoleRequestContext<ParentContext>
    let users: ConsoleUserService

    func authenticate(request: Request, context: Context) async throws -> ConsoleSession? {
        guard let secret = request.cookies[ConsoleCookie.session]?.value, !secret.isEmpty else { return nil }
        return try await users.session(secret: secret)
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
