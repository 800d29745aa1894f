import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import Storegate

/// The console's templates, parsed once, and the HTML responses made from them: every page in the layout,
/// with headers that keep it from being framed, cached, sniffed or leaking its URL (links carry tokens).
struct Pages: Sendable {
    let library: MustacheLibrary

    init() throws { library = try Self.parsed.get() }

    /// Parsed once a process: the templates are compiled in, and parsing them was a tenth of the test
    /// suite's time on its cooperative threads while every test server parsed them afresh.
    private static let parsed = Result { () throws -> MustacheLibrary in
        var library = MustacheLibrary()
        for (name, text) in [
            ("layout", LayoutTemplate.text), ("signIn", SignInTemplate.text), ("link", LinkTemplate.text), ("message", MessageTemplate.text),
            ("overview", OverviewTemplate.text), ("customer", CustomerTemplate.text), ("people", PeopleTemplate.text),
            ("audit", AuditTemplate.text),
        ] {
            try library.register(text, named: name)
        }
        return library
    }

    /// What the layout shows around a page.
    struct Frame {
        var title: String
        var signedIn = false
        var tenantName: String?
        var email: String?
        var role: String?
        var mayManagePeople = false
        var mayReadAudit = false
        var csrf: String?
        var query: String?
        var flash: String?
        var error: String?
        /// The technical side of `error`, folded away.
        var errorDetail: String?
        var body = ""

        init(title: String, session: ConsoleSession? = nil) {
            self.title = title
            if let session {
                signedIn = true
                tenantName = session.tenant.name
                email = session.user.email
                role = session.user.role.rawValue
                mayManagePeople = session.user.role.mayManagePeople
                mayReadAudit = session.user.role.mayReadAudit
                csrf = session.csrfToken
            }
        }
    }

    func page(_ template: String, _ model: Any, frame: Frame, status: HTTPResponse.Status = .ok) -> Response {
        var frame = frame
        frame.body = library.render(model, withTemplate: template) ?? ""
        return Self.html(library.render(frame, withTemplate: "layout") ?? "", status: status)
    }

    /// A short page with a heading, a sentence and a way back.
    func message(
        _ heading: String, _ message: String, session: ConsoleSession?, status: HTTPResponse.Status, back: String = "/console",
        backLabel: String = "Back to the console"
    ) -> Response {
        page(
            "message", ["heading": heading, "message": message, "back": back, "backLabel": backLabel], frame: Frame(title: heading, session: session),
            status: status)
    }

    /// The answer to a form posted after its session ended.
    func signedOut() -> Response {
        message("Signed out", "Your session ended; sign in again.", session: nil, status: .unauthorized, back: "/console/sign-in", backLabel: "Sign in")
    }

    static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = securityHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func redirect(_ location: String, cookies: [Cookie] = []) -> Response {
        var response = Response(status: .seeOther, headers: securityHeaders)
        response.headers[.location] = location
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }

    static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy:
            "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        .xContentTypeOptions: "nosniff", .referrerPolicy: "no-referrer", .cacheControl: "no-store", HTTPField.Name("X-Frame-Options")!: "DENY",
    ]
}

extension HTTPField.Name {
    static let contentSecurityPolicy = Self("Content-Security-Policy")!
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
}

/// Dates as support reads them: `2026-11-26 14:05 UTC`.
func shown(_ date: Date?) -> String {
    guard let date else { return "—" }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    return String(format: "%04d-%02d-%02d %02d:%02d UTC", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
}
