import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import Storegate
import StoregatePostgres
import StoregateServer
import Testing

/// A real Storegate HTTP server on a free loopback port, and a client to talk to it.
struct TestServer {
    let baseURL: String
    var port: Int { URLComponents(string: baseURL)?.port ?? 0 }
    let client: HTTPClient

    struct Reply {
        let status: Int
        let headers: HTTPHeaders
        let body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: Any? { body.isEmpty ? nil : try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }
    }

    static func with<T: Sendable>(
        _ capabilities: Capabilities, configure: (inout ServerConfiguration) -> Void = { _ in },
        logger: Logger = TestLog.logger("test-server"),
        tls: TLSConfiguration? = nil,
        _ body: @Sendable (TestServer) async throws -> T
    ) async throws -> T {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configure(&configuration)
        let app = try buildApplication(configuration: configuration, capabilities: capabilities, logger: logger)
        // The tests' own client: it checks the server's certificate against `tls` (HummingbirdTesting's does not).
        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.tlsConfiguration = tls
        // A kept-alive connection is given up well before the server closes it for idleness: a request sent
        // as the server closes would meet a reset (the server closes with the request unread), which a
        // loaded CI run once hit after a test's connection sat idle for the server's 15 s.
        clientConfiguration.connectionPool = .init(idleTimeout: TimeAmount(configuration.idleTimeout / 3))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
        let scheme: TestHTTPScheme = configuration.tlsCertificatePath == nil ? .http : .https
        do {
            let result = try await app.test(.ahc(scheme)) { running in
                try await body(TestServer(baseURL: "\(scheme)://localhost:\(try running.boundPort())", client: client))
            }
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    func request(_ path: String, method: HTTPMethod = .POST, body: [UInt8]? = nil, headers: [(String, String)] = []) async throws -> Reply {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(request, timeout: .seconds(120))
        let buffer = try await response.body.collect(upTo: 16 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers, body: Array(buffer.readableBytesView))
    }

    /// POSTs a raw body to /rpc with the API key.
    func rpc(raw: String, apiKey: String?) async throws -> Reply {
        var headers = [("Content-Type", "application/json")]
        if let apiKey { headers.append(("Authorization", "Bearer \(apiKey)")) }
        return try await request("/rpc", body: Array(raw.utf8), headers: headers)
    }

    /// One call; returns the decoded response object.
    func call(_ method: String, _ params: [String: Any] = [:], apiKey: String) async throws -> [String: Any] {
        let body: [String: Any] = ["jsonrpc": "2.0", "method": method, "params": params, "id": 1]
        let raw = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let reply = try await rpc(raw: raw, apiKey: apiKey)
        ResultContract.check(method: method, response: reply.body)
        return reply.json as? [String: Any] ?? [:]
    }
}

extension TestClientProtocol {
    /// The port HummingbirdTesting's live server listens on.
    func boundPort() throws -> Int {
        guard let port else { throw TimedOut(description: "the test server reported no port") }
        return port
    }
}

/// Shared helpers for building tenants in tests.
enum Fixtures {
    static let issuerId = "5b2c7c3e-1a4f-4d2b-9a0e-6f1d2c3b4a59"

    static func p8() -> String {
        P256Key.generatePEM()
    }

    /// A tenant with one app (in Sandbox unless `environments` say otherwise) and an API key.
    static func tenant(
        _ capabilities: Capabilities, slug: String, bundleId: String, environments: [String] = ["Sandbox"]
    ) async throws -> (tenant: Caller, apiKey: String, appId: UUID) {
        let tenant = try await capabilities.tenants.create(slug: slug, name: "Tenant \(slug)", actor: Actor("test"))
        let app = try await capabilities.apps.add(tenant: tenant, bundleId: bundleId, appAppleId: 42, environments: environments, actor: Actor("test"))
        let key = try await capabilities.apiKeys.issue(tenant: tenant, label: "test", actor: Actor("test"))
        return (try await capabilities.apiKeys.authenticate(key.secret), key.secret, app.app.id)
    }
}
