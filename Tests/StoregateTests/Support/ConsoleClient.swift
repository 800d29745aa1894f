import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A person's browser as the console sees it, for tests over HTTP: a cookie jar, redirects not followed
/// (a test reads where they go), forms posted url-encoded.
final class ConsoleClient: Sendable {
    let baseURL: String
    /// One client for every browser (each has its own cookies): a client per browser would be shut down as
    /// it goes, and `syncShutdown` blocks one of the two threads that run every test's tasks. Its pool opens
    /// as many connections as a storm sends requests at once (the default 8 queued the rest, and on a busy
    /// machine they timed out waiting for one).
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 160
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
    private var client: HTTPClient { Self.client }
    private let jar = JarBox()

    final class JarBox: @unchecked Sendable {
        private let lock = NSLock()
        private var cookies: [String: String] = [:]
        func set(_ name: String, _ value: String?) { lock.withLock { cookies[name] = value } }
        var header: String { lock.withLock { cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") } }
        subscript(_ name: String) -> String? { lock.withLock { cookies[name] } }
    }

    struct Page {
        let status: Int
        let headers: HTTPHeaders
        let text: String
        var location: String? { headers.first(name: "location") }
        /// The value of the first hidden `csrf` input.
        var csrf: String? { Page.value(of: "csrf", in: text) }

        static func value(of name: String, in html: String) -> String? {
            guard let range = html.range(of: #"name="\#(name)" value=""#) else { return nil }
            return String(html[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    init(baseURL: String) { self.baseURL = baseURL }

    subscript(cookie name: String) -> String? { jar[name] }

    func get(_ path: String) async throws -> Page { try await send(path, method: .GET, body: nil) }

    func post(_ path: String, _ fields: [(String, String)]) async throws -> Page {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
        return try await send(path, method: .POST, body: body)
    }

    /// Signs in with a password through the sign-in form.
    func signIn(tenant: String, email: String, password: String) async throws -> Page {
        let form = try await get("/console/sign-in")
        return try await post("/console/sign-in", [("csrf", form.csrf ?? ""), ("tenant", tenant), ("email", email), ("password", password)])
    }

    private func send(_ path: String, method: HTTPMethod, body: String?) async throws -> Page {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        let cookies = jar.header
        if !cookies.isEmpty { request.headers.add(name: "Cookie", value: cookies) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await client.execute(request, timeout: .seconds(120))
        for header in response.headers["set-cookie"] {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = pair.count > 1 ? String(pair[1]) : ""
            jar.set(String(pair[0]), value.isEmpty || header.contains("Max-Age=0") ? nil : value)
        }
        let buffer = try await response.body.collect(upTo: 4 << 20)
        return Page(status: Int(response.status.code), headers: response.headers, text: String(buffer: buffer))
    }
}
