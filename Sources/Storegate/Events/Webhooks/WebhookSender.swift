import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1

/// Sends one signed message to one URL and reports what came back; never throws (a refused connection,
/// a timeout or a non-public address is an attempt that failed, with its reason).
public struct WebhookSender: Sendable {
    let policy: WebhookURLPolicy
    /// Each attempt ends after this long, answered or not.
    public static let timeout: TimeAmount = .seconds(10)

    /// One client for every delivery, that follows no redirect (a redirect could lead into a private
    /// network) and gives up connecting after the attempt's timeout. Process-wide, like `.shared`.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: timeout, read: timeout)
        configuration.connectionPool = .init(idleTimeout: .seconds(60))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    public init(policy: WebhookURLPolicy) { self.policy = policy }

    public func send(url: String, messageId: String, body: Data, keys: [SymmetricKey], number: Int) async -> WebhookDelivery.Attempt {
        let attemptedAt = Date()
        let clock = ContinuousClock()
        let started = clock.now
        func attempt(_ statusCode: Int?, _ error: String?) -> WebhookDelivery.Attempt {
            let elapsed = started.duration(to: clock.now).components
            let milliseconds = Int(elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000)
            return WebhookDelivery.Attempt(number: number, attemptedAt: attemptedAt, statusCode: statusCode, latencyMilliseconds: milliseconds, error: error)
        }
        do {
            if let host = URL(string: url)?.host { try await policy.checkAddresses(host: host) }
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "content-type", value: "application/json")
            request.headers.add(name: "user-agent", value: "Storegate-Webhooks/1")
            for header in StandardWebhooks.headers(id: messageId, timestamp: Int(attemptedAt.timeIntervalSince1970), body: body, keys: keys) {
                request.headers.add(name: header.name, value: header.value)
            }
            request.body = .bytes(ByteBuffer(bytes: body))
            let response = try await Self.client.execute(request, timeout: Self.timeout)
            // The answer's body is read (up to 64 KiB, the rest is dropped) so the connection can be reused.
            var read = 0
            for try await part in response.body {
                read += part.readableBytes
                if read > 65536 { break }
            }
            let status = Int(response.status.code)
            return attempt(status, (200..<300).contains(status) ? nil : "answered \(status)")
        } catch let error as StoregateError {
            return attempt(nil, error.description)
        } catch {
            return attempt(nil, Self.describe(error))
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return "no answer within 10 seconds"
            case .remoteConnectionClosed: return "the receiver closed the connection"
            default: return "\(error)"
            }
        }
        return String("\(error)".prefix(300))
    }
}
