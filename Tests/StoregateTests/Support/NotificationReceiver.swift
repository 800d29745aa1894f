import AppStoreServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// A stand-in for a developer's notification endpoint: records every `signedPayload` it receives and
/// answers with the statuses it is told to (then 200).
final class NotificationReceiver: Sendable {
    private let state = Mutex<(received: [String], statuses: [HTTPResponse.Status])>(([], []))

    init(failFirst: Int = 0) { state.withLock { $0.statuses = Array(repeating: .internalServerError, count: failFirst) } }

    var received: [String] { state.withLock { $0.received } }

    func with<T: Sendable>(_ body: @Sendable (_ url: String) async throws -> T) async throws -> T {
        let router = Router()
        router.post("/notifications") { [self] request, context in
            let payload = try await request.decode(as: ResponseBodyV2.self, context: context)
            let status = state.withLock { state in
                state.received.append(payload.signedPayload ?? "")
                return state.statuses.isEmpty ? HTTPResponse.Status.ok : state.statuses.removeFirst()
            }
            return Response(status: status)
        }
        let app = Application(router: router, logger: TestLog.logger("receiver"))
        return try await app.test(.ahc(.http)) { running in try await body("http://localhost:\(try running.boundPort())/notifications") }
    }

    /// Waits until `count` notifications arrived (bounded).
    func wait(for count: Int, timeout: Duration = .seconds(30)) async throws {
        try await eventually("\(count) notifications received", timeout: timeout) { received.count >= count }
    }
}
