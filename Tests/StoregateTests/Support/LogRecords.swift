import Logging
import Synchronization

/// A log handler that keeps what it is given, for a test that reads what was logged and at which level.
struct LogRecords: LogHandler {
    final class Kept: Sendable {
        let entries = Mutex<[(level: Logger.Level, message: String)]>([])
    }

    let kept = Kept()
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { kept.entries.withLock { $0.append((event.level, event.message.description)) } }

    /// How many times `message` was logged at `level`.
    func count(_ message: String, at level: Logger.Level) -> Int { kept.entries.withLock { $0.filter { $0.level == level && $0.message == message }.count } }
}
