import Foundation
import HTTPTypes
import Hummingbird
import Storegate

/// The support console at `/console`, for a tenant's people: sign-in (password or one-time link), the
/// tenant's overview, finding a customer, the customer's page and what support does for them, and for
/// admins the tenant's people and audit log. Server-rendered HTML, no JavaScript. Sessions live in a
/// Secure, HttpOnly, SameSite=Strict cookie whose secret the database keeps only hashed; every form
/// carries the session's CSRF token (the sign-in forms, a token doubled in a cookie); every page reads the
/// session's own tenant, so another tenant's customers are simply not found; acting needs the support or
/// admin role, and is audited with the person's email.
///
/// The routes run in `ConsoleRequestContext`, a child of the server's context: `SessionMiddleware` puts
/// the person signed in there, `SignedInMiddleware` keeps everyone else out, `CSRFMiddleware` checks
/// every posted form; a route decodes its form, a small `Decodable` struct, with `URLEncodedFormDecoder`.
public struct ConsoleRoutes<ParentContext: RequestContext>: Sendable {
    typealias Context = ConsoleRequestContext<ParentContext>
    let capabilities: Capabilities
    let pages: Pages

    public init(capabilities: Capabilities) throws {
        self.capabilities = capabilities
        self.pages = try Pages()
    }

    public func addRoutes(to router: Router<ParentContext>) {
        let console = router.group("/console", context: Context.self).add(middleware: FormErrorMiddleware())
        console.get("style.css", use: stylesheet)

        // Signing in (ConsoleRoutes+SignIn.swift): no session is read, the forms' token is doubled in a cookie.
        console.group()
            .add(middleware: CSRFMiddleware(refused: signInExpired))
            .get("sign-in", use: signInPage)
            .post("sign-in", use: signIn)
        console.group()
            .add(middleware: CSRFMiddleware(refused: linkExpired))
            .get("link/:token", use: linkPage)
            .post("link", use: useLink)

        // Signed in: the pages, signing out, and the actions on a customer's page (ConsoleRoutes+Customer.swift).
        let signedIn = console.group().add(middleware: SessionMiddleware(users: capabilities.consoleUsers))
        signedIn.group()
            .add(middleware: SignedInMiddleware { Pages.redirect("/console/sign-in") })
            .get(use: overview)
            .get("figures.csv", use: figuresCSV)
            .get("search", use: search)
            .get("customer", use: customerPage)
            .get("customer/export", use: customerExport)
            .get("people", use: people)
            .get("audit", use: audit)
        signedIn.group()
            .add(middleware: SignedInMiddleware { Pages.redirect("/console/sign-in", cookies: [ConsoleCookie.ended]) })
            .add(middleware: CSRFMiddleware(refused: signOutRefused))
            .post("sign-out", use: signOut)
        addActions(
            to: signedIn.group("customer")
                .add(middleware: SignedInMiddleware { [pages] in pages.signedOut() })
                .add(middleware: CSRFMiddleware(refused: formRefused))
                .add(middleware: CustomerActionMiddleware(routes: self)))
    }

    @Sendable func stylesheet(_ request: Request, context: Context) -> Response {
        var headers: HTTPFields = [.contentType: "text/css; charset=utf-8", .cacheControl: "max-age=3600"]
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: Stylesheet.text)))
    }

    /// A signed-in person's form without the session's CSRF token.
    @Sendable func formRefused(_ request: Request, context: Context) -> Response {
        pages.message(
            "Form refused", "This form did not come from your console session (its CSRF token is missing or wrong); reload the page and try again.",
            session: context.identity, status: .forbidden)
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
}

/// The console's cookies: Secure, HttpOnly, SameSite=Strict, for this host only (`__Host-`, path /).
enum ConsoleCookie {
    /// The session's secret.
    static let session = "__Host-storegate-session"
    /// The sign-in forms' CSRF token.
    static let signIn = "__Host-storegate-sign-in"
    /// Clears the session's cookie.
    static var ended: Cookie { make(session, "", maxAge: 0) }

    static func make(_ name: String, _ value: String, maxAge: Int) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: true, httpOnly: true, sameSite: .strict)
    }
}
