import AppStoreServer
import Foundation
import Hummingbird
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
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) },
            logger: Logger(label: "receiver", factory: { _ in SwiftLogNoOpLogHandler() }))
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await app.runService()
                return nil
            }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            return try await body("http://127.0.0.1:\(port)/notifications")
        }
    }

    /// Waits until `count` notifications arrived (bounded).
    func wait(for count: Int, timeout: Duration = .seconds(10)) async throws {
        try await eventually("\(count) notifications received", timeout: timeout) { received.count >= count }
    }
}
