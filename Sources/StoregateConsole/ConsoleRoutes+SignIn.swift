import Foundation
import Hummingbird
import Storegate

/// Signing in and out. The sign-in forms have no session yet: their CSRF token is a random value set in a
/// cookie and repeated in the form, which another site can neither read nor set (`CSRFMiddleware`).
extension ConsoleRoutes {
    struct SignInQuery: Decodable {
        @Trimmed var tenant: String?
    }

    struct SignInForm: Decodable {
        @Trimmed var tenant: String?
        @Trimmed var email: String?
        /// As typed: a password is not trimmed.
        var password: String?
    }

    struct LinkForm: Decodable {
        @Trimmed var token: String?
    }

    @Sendable func signInPage(_ request: Request, context: Context) throws -> Response {
        signInForm(request, tenant: try request.uri.decodeQuery(as: SignInQuery.self, context: context).tenant ?? "")
    }

    @Sendable func signIn(_ request: Request, context: Context) async throws -> Response {
        let form = try await request.decode(as: SignInForm.self, context: context)
        let (tenant, email, password) = (form.tenant ?? "", form.email ?? "", form.password ?? "")
        for (field, value) in [("Tenant", tenant), ("Email", email), ("Password", password)] where value.isEmpty {
            return signInForm(request, error: "\(field) is required.", tenant: tenant, email: email, status: .badRequest)
        }
        do {
            let (secret, session) = try await capabilities.consoleUsers.signIn(tenantSlug: tenant, email: email, password: password)
            return started(secret, session)
        } catch ConsoleSignInRefusal.refused {
            return signInForm(request, error: "The tenant, email or password is not right.", tenant: tenant, email: email, status: .unauthorized)
        } catch ConsoleSignInRefusal.tooManyAttempts(let seconds) {
            return signInForm(
                request, error: "Too many failed attempts; try again in \(seconds / 60) minutes or use a sign-in link.", tenant: tenant, email: email,
                status: .tooManyRequests, retryAfter: seconds)
        } catch ConsoleSignInRefusal.busy(let seconds) {
            return signInForm(
                request, error: "Too many sign-ins are being checked right now; try again in a few seconds.", tenant: tenant, email: email,
                status: .serviceUnavailable, retryAfter: seconds)
        }
    }

    /// The sign-in form posted without the token of its cookie.
    @Sendable func signInExpired(_ request: Request, context: Context) async throws -> Response {
        let form = try await request.decode(as: SignInForm.self, context: context)
        return signInForm(request, error: "The sign-in form expired; try again.", tenant: form.tenant ?? "", email: form.email ?? "", status: .forbidden)
    }

    @Sendable func linkPage(_ request: Request, context: Context) -> Response {
        let (csrf, cookie) = signInToken(request)
        var response = pages.page("link", ["csrf": csrf, "token": context.parameters.get("token") ?? ""], frame: Pages.Frame(title: "Sign in"))
        if let cookie { response.setCookie(cookie) }
        return response
    }

    @Sendable func useLink(_ request: Request, context: Context) async throws -> Response {
        let form = try await request.decode(as: LinkForm.self, context: context)
        do {
            let (secret, session) = try await capabilities.consoleUsers.redeem(link: form.token ?? "")
            return started(secret, session)
        } catch ConsoleSignInRefusal.refused {
            return pages.message(
                "Link not valid", "This sign-in link was used already, has expired or is not known. Ask an admin for a new one.", session: nil,
                status: .unauthorized, back: "/console/sign-in", backLabel: "Sign in with a password")
        }
    }

    /// The link's form posted without the token of its cookie.
    @Sendable func linkExpired(_ request: Request, context: Context) -> Response {
        pages.message("Form refused", "The sign-in form expired; open the link again.", session: nil, status: .forbidden)
    }

    @Sendable func signOut(_ request: Request, context: Context) async throws -> Response {
        if let secret = request.cookies[ConsoleCookie.session]?.value { try await capabilities.consoleUsers.signOut(secret: secret) }
        return Pages.redirect("/console/sign-in", cookies: [ConsoleCookie.ended])
    }

    /// A sign-out form that did not come from the session.
    @Sendable func signOutRefused(_ request: Request, context: Context) -> Response {
        pages.message(
            "Form refused", "This form did not come from your console session; reload and try again.", session: context.identity, status: .forbidden)
    }

    /// The sign-in page, with what was typed and why it was refused.
    func signInForm(
        _ request: Request, error: String? = nil, tenant: String, email: String = "", status: HTTPResponse.Status = .ok, retryAfter: Int? = nil
    ) -> Response {
        let (token, cookie) = signInToken(request)
        var frame = Pages.Frame(title: "Sign in")
        frame.error = error
        var response = pages.page("signIn", ["csrf": token, "tenant": tenant, "email": email], frame: frame, status: status)
        if let cookie { response.setCookie(cookie) }
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }

    private func started(_ secret: String, _ session: ConsoleSession) -> Response {
        let lifetime = Int(session.expiresAt.timeIntervalSinceNow)
        return Pages.redirect(
            "/console", cookies: [ConsoleCookie.make(ConsoleCookie.session, secret, maxAge: lifetime), ConsoleCookie.make(ConsoleCookie.signIn, "", maxAge: 0)])
    }

    /// The sign-in forms' token: the cookie's, or a new one with the cookie to set.
    private func signInToken(_ request: Request) -> (String, Cookie?) {
        if let token = request.cookies[ConsoleCookie.signIn]?.value, token.utf8.count == 43 { return (token, nil) }
        let token = Secret.token()
        return (token, ConsoleCookie.make(ConsoleCookie.signIn, token, maxAge: 3600))
    }
}
