import Foundation
import Hummingbird
import Storegate

/// Signing in and out. The sign-in forms have no session yet: their CSRF token is a random value set in a
/// cookie and repeated in the form, which another site can neither read nor set.
extension ConsoleRoutes {
    func signInPage(
        _ request: Request, error: String? = nil, tenant: String = "", email: String = "", status: HTTPResponse.Status = .ok, retryAfter: Int? = nil
    )
        -> Response
    {
        let (token, cookie) = signInToken(request)
        var frame = Pages.Frame(title: "Sign in")
        frame.error = error
        let slug = tenant.isEmpty ? request.uri.queryParameters["tenant"].map(String.init) ?? "" : tenant
        var response = pages.page("signIn", ["csrf": token, "tenant": slug, "email": email], frame: frame, status: status)
        if let cookie { response.setCookie(cookie) }
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }

    func signIn(_ request: Request) async throws -> Response {
        let form = try await Form(request)
        let (tenant, email) = (form["tenant"] ?? "", form["email"] ?? "")
        guard let expected = request.cookies[Self.signInCookie]?.value, Secret.same(form.raw("csrf"), expected) else {
            return signInPage(request, error: "The sign-in form expired; try again.", tenant: tenant, email: email, status: .forbidden)
        }
        for (field, value) in [("Tenant", tenant), ("Email", email), ("Password", form.raw("password") ?? "")] where value.isEmpty {
            return signInPage(request, error: "\(field) is required.", tenant: tenant, email: email, status: .badRequest)
        }
        do {
            let (secret, session) = try await services.consoleUsers.signIn(tenantSlug: tenant, email: email, password: form.raw("password") ?? "")
            return started(secret, session)
        } catch ConsoleSignInRefusal.refused {
            return signInPage(request, error: "The tenant, email or password is not right.", tenant: tenant, email: email, status: .unauthorized)
        } catch ConsoleSignInRefusal.tooManyAttempts(let seconds) {
            return signInPage(
                request, error: "Too many failed attempts; try again in \(seconds / 60) minutes or use a sign-in link.", tenant: tenant, email: email,
                status: .tooManyRequests, retryAfter: seconds)
        } catch ConsoleSignInRefusal.busy(let seconds) {
            return signInPage(
                request, error: "Too many sign-ins are being checked right now; try again in a few seconds.", tenant: tenant, email: email,
                status: .serviceUnavailable, retryAfter: seconds)
        }
    }

    func linkPage(_ request: Request, token: String) -> Response {
        let (csrf, cookie) = signInToken(request)
        var response = pages.page("link", ["csrf": csrf, "token": token], frame: Pages.Frame(title: "Sign in"))
        if let cookie { response.setCookie(cookie) }
        return response
    }

    func useLink(_ request: Request) async throws -> Response {
        let form = try await Form(request)
        guard let expected = request.cookies[Self.signInCookie]?.value, Secret.same(form.raw("csrf"), expected) else {
            return pages.message("Form refused", "The sign-in form expired; open the link again.", session: nil, status: .forbidden)
        }
        do {
            let (secret, session) = try await services.consoleUsers.redeem(link: form["token"] ?? "")
            return started(secret, session)
        } catch ConsoleSignInRefusal.refused {
            return pages.message(
                "Link not valid", "This sign-in link was used already, has expired or is not known. Ask an admin for a new one.", session: nil,
                status: .unauthorized, back: "/console/sign-in", backLabel: "Sign in with a password")
        }
    }

    func signOut(_ request: Request) async throws -> Response {
        let form = try await Form(request)
        if let secret = request.cookies[Self.sessionCookie]?.value, let session = try await services.consoleUsers.session(secret: secret) {
            guard Secret.same(form.raw("csrf"), session.csrfToken) else {
                return pages.message(
                    "Form refused", "This form did not come from your console session; reload and try again.", session: session,
                    status: .forbidden)
            }
            try await services.consoleUsers.signOut(secret: secret)
        }
        return Pages.redirect("/console/sign-in", cookies: [Self.cookie(Self.sessionCookie, "", maxAge: 0)])
    }

    private func started(_ secret: String, _ session: ConsoleSession) -> Response {
        let lifetime = Int(session.expiresAt.timeIntervalSinceNow)
        return Pages.redirect(
            "/console", cookies: [Self.cookie(Self.sessionCookie, secret, maxAge: lifetime), Self.cookie(Self.signInCookie, "", maxAge: 0)])
    }

    /// The sign-in forms' token: the cookie's, or a new one with the cookie to set.
    private func signInToken(_ request: Request) -> (String, Cookie?) {
        if let token = request.cookies[Self.signInCookie]?.value, token.utf8.count == 43 { return (token, nil) }
        let token = Secret.token()
        return (token, Self.cookie(Self.signInCookie, token, maxAge: 3600))
    }
}
