import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// A tenant's webhook endpoint: records every message as received (headers and raw body) and answers
/// with the statuses it is told to, then 200. With `hangFirst`, the first request is never answered
/// (until the receiver stops), as if the receiver or the network stalled.
final class WebhookReceiver: Sendable {
    struct Message: Sendable {
        let id: String
        let timestamp: String
        let signature: String
        let body: String
        let receivedAt: Date

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        var type: String? { json["type"] as? String }
        var sequence: Int? { json["sequence"] as? Int }
    }

    private let state: Mutex<(messages: [Message], statuses: [HTTPResponse.Status], hang: Bool, released: Bool)>

    init(statuses: [HTTPResponse.Status] = [], hangFirst: Bool = false) { state = Mutex(([], statuses, hangFirst, false)) }

    var messages: [Message] { state.withLock { $0.messages } }

    /// From now on, answers 200.
    func answerOK() { state.withLock { $0.statuses = [] } }

    func with<T: Sendable>(_ body: @Sendable (_ url: String) async throws -> T) async throws -> T {
        let router = Router()
        router.post("/hooks") { [self] request, context in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            let headers = request.headers
            let message = Message(
                id: headers[.init("webhook-id")!] ?? "", timestamp: headers[.init("webhook-timestamp")!] ?? "",
                signature: headers[.init("webhook-signature")!] ?? "", body: String(buffer: bytes), receivedAt: Date())
            let (status, hang) = state.withLock { state in
                state.messages.append(message)
                let hang = state.hang
                state.hang = false
                return (state.statuses.isEmpty ? HTTPResponse.Status.ok : state.statuses.removeFirst(), hang)
            }
            while hang, !state.withLock({ $0.released }) { try await Task.sleep(for: .milliseconds(50)) }
            return Response(status: status)
        }
        let app = Application(router: router, logger: TestLog.logger("webhooks"))
        return try await app.test(.live) { running in
            defer { state.withLock { $0.released = true } }
            return try await body("http://127.0.0.1:\(try running.boundPort())/hooks")
        }
    }

    /// Waits until `count` messages arrived (bounded).
    func wait(for count: Int, timeout: Duration = .seconds(30)) async throws {
        try await eventually("\(count) webhook messages received", timeout: timeout) { messages.count >= count }
    }

    /// For each message, the indexes of `secrets` whose signature it carries and how many signatures it
    /// carries, as checked by `Tests/StandardWebhooks/verify.py` (Python's hmac, not Storegate's code).
    static func verify(_ messages: [Message], secrets: [String]) async throws -> [(signedBy: [Int], signatures: Int)] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("webhooks-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let spec: [String: Any] = [
            "secrets": secrets,
            "messages": messages.map { ["id": $0.id, "timestamp": $0.timestamp, "signature": $0.signature, "body": $0.body] },
        ]
        try JSONSerialization.data(withJSONObject: spec).write(to: file)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("StandardWebhooks/verify.py").path
        let run = try await Subprocess.run("/usr/bin/env", ["python3", script, file.path], environment: ProcessInfo.processInfo.environment)
        #expect(run.status == 0, "verify.py: \(run.stderr)")
        return run.stdout.split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let count = Int(parts[1]) else { return ([], -1) }
            return (parts[0] == "-" ? [] : parts[0].split(separator: ",").compactMap { Int($0) }, count)
        }
    }
}
