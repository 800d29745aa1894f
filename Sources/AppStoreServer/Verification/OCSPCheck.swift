import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import X509

/// How OCSP requests reach responders. Throwing means the responder could not be reached or read.
public protocol OCSPTransport: Sendable {
    func post(_ request: [UInt8], to uri: String) async throws -> [UInt8]
}

/// Posts `application/ocsp-request` over a shared `HTTPClient` (the caller owns it).
public struct HTTPOCSPTransport: OCSPTransport {
    let http: HTTPClient
    /// How long a responder may take to answer; past it the check is a retryable failure.
    let timeout: TimeAmount

    public init(http: HTTPClient, timeout: TimeAmount = .seconds(5)) {
        self.http = http
        self.timeout = timeout
    }

    public func post(_ request: [UInt8], to uri: String) async throws -> [UInt8] {
        var call = HTTPClientRequest(url: uri)
        call.method = .POST
        call.headers.add(name: "Content-Type", value: "application/ocsp-request")
        call.body = .bytes(ByteBuffer(bytes: request))
        let response = try await http.execute(call, timeout: timeout)
        guard response.status.code == 200 else { throw OCSPNetworkFailure(reason: "HTTP \(response.status.code)") }
        return Array(try await response.body.collect(upTo: 1 << 20).readableBytesView)
    }
}

public struct OCSPNetworkFailure: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}

/// Adapts a transport to swift-certificates' requester and remembers network failures, so that an
/// unreachable responder is reported as `retryable` rather than as a bad certificate.
final class OCSPRequesterAdapter: OCSPRequester {
    let transport: any OCSPTransport
    private let failure = Mutex<String?>(nil)

    init(transport: any OCSPTransport) { self.transport = transport }

    var networkFailure: String? { failure.withLock { $0 } }

    func query(request: [UInt8], uri: String) async -> OCSPRequesterQueryResult {
        do {
            return .response(try await transport.post(request, to: uri))
        } catch {
            let reason = String(describing: error)
            failure.withLock { $0 = $0 ?? reason }
            return .terminalError(OCSPNetworkFailure(reason: reason))
        }
    }
}
