import Foundation
import HTTPTypes
import Hummingbird
import Storegate

/// The support console at `/console`, for a tenant's people: sign-in (password or one-time link), the
/// tenant's overview, finding a customer, the customer's page and what support does for them. Server-
/// rendered HTML, no JavaScript. Sessions live in a Secure, HttpOnly, SameSite=Strict cookie whose secret
/// the database keeps only hashed; every form carries the session's CSRF token (the sign-in forms, a
/// token doubled in a cookie); every page reads the session's own tenant, so another tenant's customers
/// are simply not found; acting needs the support or admin role, and is audited with the person's email.
public struct ConsoleRoutes<Context: RequestContext>: Sendable {
    let services: Services
    let pages: Pages

    /// The cookie with the session's secret.
    static var sessionCookie: String { "__Host-storegate-session" }
    /// The cookie with the sign-in forms' CSRF token.
    static var signInCookie: String { "__Host-storegate-sign-in" }

    public init(services: Services) throws {
        self.services = services
        self.pages = try Pages()
    }

    public func addRoutes(to router: Router<Context>) {
        router.get("/console/style.css") { _, _ in
            var headers: HTTPFields = [.contentType: "text/css; charset=utf-8", .cacheControl: "max-age=3600"]
            headers[.xContentTypeOptions] = "nosniff"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: Stylesheet.text)))
        }
        router.get("/console/sign-in") { request, _ in signInPage(request) }
        router.post("/console/sign-in") { request, _ in try await signIn(request) }
        router.get("/console/link/:token") { request, context in linkPage(request, token: context.parameters.get("token") ?? "") }
        router.post("/console/link") { request, _ in try await useLink(request) }
        router.post("/console/sign-out") { request, _ in try await signOut(request) }
        router.get("/console") { request, _ in try await signedIn(request) { session in try await overview(session) } }
        router.get("/console/search") { request, _ in try await signedIn(request) { session in try await search(request, session) } }
        router.get("/console/customer") { request, _ in
            try await signedIn(request) { session in
                let query = Form(query: request)
                return try await customer(query["id"] ?? "", session, flash: query["done"].flatMap { Self.done[$0] }, timeline: Self.position(query))
            }
        }
        router.post("/console/customer/extend") { request, _ in try await act(request) { try await extend($0, $1) } }
        router.post("/console/customer/grant") { request, _ in try await act(request) { try await grant($0, $1) } }
        router.post("/console/customer/revoke-grant") { request, _ in try await act(request) { try await revokeGrant($0, $1) } }
        router.post("/console/customer/sync") { request, _ in try await act(request) { try await sync($0, $1) } }
        router.post("/console/customer/consumption") { request, _ in try await act(request) { try await answerConsumption($0, $1) } }
        router.get("/console/people") { request, _ in try await signedIn(request) { session in try await people(session) } }
    }

    // MARK: Sessions

    /// Runs `page` for the signed-in person; anyone else is sent to sign in.
    func signedIn(_ request: Request, _ page: (ConsoleSession) async throws -> Response) async throws -> Response {
        guard let secret = request.cookies[Self.sessionCookie]?.value, !secret.isEmpty,
            let session = try await services.consoleUsers.session(secret: secret)
        else { return Pages.redirect("/console/sign-in") }
        return try await page(session)
    }

    /// A posted action: signed in, with the session's CSRF token, by a role that may act. Its answer is the
    /// customer page again (`done` says what happened); a refusal shows the page with the reason, naming
    /// the field, or for a failure at Apple what happened and what to try (`FailureMessage`).
    func act(_ request: Request, _ action: (ConsoleSession, Form) async throws -> String) async throws -> Response {
        guard let secret = request.cookies[Self.sessionCookie]?.value, let session = try await services.consoleUsers.session(secret: secret) else {
            return pages.message(
                "Signed out", "Your session ended; sign in again.", session: nil, status: .unauthorized, back: "/console/sign-in",
                backLabel: "Sign in")
        }
        let form = try await Form(request)
        guard Secret.same(form.raw("csrf"), session.csrfToken) else {
            return pages.message(
                "Form refused", "This form did not come from your console session (its CSRF token is missing or wrong); reload the page and try again.",
                session: session, status: .forbidden)
        }
        guard session.user.role.mayAct else {
            return pages.message(
                "Not allowed", "Your role (\(session.user.role.rawValue)) can look but not act; ask an admin for the support role.", session: session,
                status: .forbidden)
        }
        let customerId = form["customerId"] ?? ""
        do {
            let done = try await action(session, form)
            return Pages.redirect("/console/customer?id=\(Self.query(customerId))&done=\(done)")
        } catch let error as StoregateError {
            return try await customer(customerId, session, error: FailureMessage(error), status: Self.status(error))
        }
    }

    /// What a finished action says on the customer page.
    static var done: [String: String] {
        [
            "extended": "The renewal date was extended.", "granted": "The grant was made.", "revoked": "The grant was revoked.",
            "synced": "The customer's purchases were read again from Apple.", "answered": "The consumption information was sent to Apple.",
        ]
    }

    static func status(_ error: StoregateError) -> HTTPResponse.Status {
        switch error {
        case .invalid, .unverified: .badRequest
        case .notFound: .notFound
        case .conflict: .conflict
        case .appStore, .keyUnavailable: .badGateway
        case .unavailable: .serviceUnavailable
        case .tenantSuspended, .unauthenticated: .forbidden
        }
    }

    static func query(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    static func cookie(_ name: String, _ value: String, maxAge: Int) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: true, httpOnly: true, sameSite: .strict)
    }
}
