import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// A client of the App Store Server API for one app key, on a shared `HTTPClient` (the caller owns
/// and shuts it down). Bearer tokens are cached by `AppStoreServerAPIToken`; retries follow `RetryPolicy`.
/// Tokens never reach a log.
public struct AppStoreServerAPIClient: Sendable {
    public enum Environment: Sendable {
        case production, sandbox
        /// Another base URL, such as the App Store simulator's.
        case custom(String)

        public var baseURL: String {
            switch self {
            case .production: "https://api.storekit.apple.com"
            case .sandbox: "https://api.storekit-sandbox.apple.com"
            case .custom(let url): url.hasSuffix("/") ? String(url.dropLast()) : url
            }
        }
    }

    public let environment: Environment
    let http: HTTPClient
    let token: AppStoreServerAPIToken
    let retry: RetryPolicy
    let logger: Logger
    let timeout: TimeAmount

    public init(
        http: HTTPClient, token: AppStoreServerAPIToken, environment: Environment, retry: RetryPolicy = RetryPolicy(), timeout: TimeAmount = .seconds(30),
        logger: Logger = Logger(label: "storegate.appstore")
    ) {
        self.http = http
        self.token = token
        self.environment = environment
        self.retry = retry
        self.timeout = timeout
        self.logger = logger
    }

    // MARK: Transport

    struct Call {
        var method: HTTPMethod
        var path: [String]
        var query: [(String, String)] = []
        var body: Data?
        /// The body's media type: JSON but for an image upload's PNG.
        var contentType = "application/json"
        /// Whether sending the call twice does what sending it once does. A call that is not (requesting a
        /// test notification sends one more each time) is retried only after Apple refused it unprocessed (429).
        var idempotent = true

        func mayRetry(after error: AppStoreServerAPIError) -> Bool {
            guard error.isRetryable else { return false }
            if idempotent { return true }
            if case .api(429, _, _, _) = error { return true }
            return false
        }
    }

    static func encodePath(_ segments: [String]) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#%")
        return segments.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }.joined(separator: "/")
    }

    static func encodeQuery(_ items: [(String, String)]) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+;#")
        return items.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1)" }.joined(separator: "&")
    }

    /// Sends a call with retries; returns the body of a 2xx response.
    func send(_ call: Call) async throws(AppStoreServerAPIError) -> Data {
        let started = ContinuousClock.now
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await sendOnce(call)
            } catch {
                let elapsed = ContinuousClock.now - started
                guard call.mayRetry(after: error), attempt < retry.maxAttempts else { throw error }
                var wait = retry.delay(after: attempt)
                if case .api(429, _, _, let retryAfter?) = error {
                    wait = .milliseconds(max(0, Int64(retryAfter.timeIntervalSinceNow * 1000)))
                }
                guard elapsed + wait < retry.budget else { throw error }
                logger.debug("retrying App Store Server API call", metadata: ["attempt": "\(attempt)", "path": "\(call.path.first ?? "")"])
                do { try await Task.sleep(for: wait) } catch { throw .transport("cancelled") }
            }
        }
    }

    private func sendOnce(_ call: Call) async throws(AppStoreServerAPIError) -> Data {
        var url = environment.baseURL + "/" + Self.encodePath(call.path)
        if !call.query.isEmpty { url += "?" + Self.encodeQuery(call.query) }
        var request = HTTPClientRequest(url: url)
        request.method = call.method
        let bearer: String
        do { bearer = try token.current() } catch { throw .signing(String(describing: error)) }
        request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "storegate/0.1")
        if let body = call.body {
            request.headers.add(name: "Content-Type", value: call.contentType)
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let status: Int
        let headers: HTTPHeaders
        let body: ByteBuffer
        do {
            let response = try await http.execute(request, timeout: timeout)
            status = Int(response.status.code)
            headers = response.headers
            body = try await response.body.collect(upTo: 4 << 20)
        } catch {
            throw .transport(String(describing: error))
        }
        let data = Data(body.readableBytesView)
        guard (200..<300).contains(status) else {
            let payload = try? JSONDecoder().decode(ErrorPayload.self, from: data)
            let retryAfter = headers.first(name: "Retry-After").flatMap(Int64.init).map { Date(timeIntervalSince1970: Double($0) / 1000) }
            throw .api(status: status, code: payload?.errorCode.map(APIErrorCode.init(rawValue:)), message: payload?.errorMessage, retryAfter: retryAfter)
        }
        return data
    }

    func decode<T: Decodable>(_ type: T.Type, _ call: Call) async throws(AppStoreServerAPIError) -> T {
        let data = try await send(call)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw .invalidResponse(status: 200, reason: String(describing: error))
        }
    }

    static func json(_ value: some Encodable) throws(AppStoreServerAPIError) -> Data {
        do { return try JSONEncoder().encode(value) } catch { throw .invalidResponse(status: 0, reason: "cannot encode the request: \(error)") }
    }
}
