import Foundation
import Logging
import Synchronization

/// API keys' last-use marks, written behind the requests that use them. A key loaded into a process's cache
/// whose stored mark is older than `APIKey.lastUseResolution` is marked here and the request goes on; one
/// writer at a time marks every key waiting in one statement. A burst of first uses (a restart, thousands of
/// tenants' first calls) costs a few statements instead of a round trip each, and no request waits for a
/// mark or fails with one. A mark the database refuses is logged and dropped, as one a crash loses: the
/// key is marked again at its next load.
///
/// Each write waits `window` first: the marks of a burst share it, and the request whose key started the
/// writer has its own statements on a connection before the writer asks for one (on a new pool, the two
/// at once would have it open a second connection in the request's way).
final class LastUseMarks: Sendable {
    /// Keys marked by one statement, at most.
    static let batch = 1_000
    static let window = Duration.milliseconds(100)

    private struct State {
        var waiting: Set<UUID> = []
        /// The writer, while it runs.
        var writer: Task<Void, Never>?
    }

    private let state = Mutex(State())
    private let write: @Sendable ([UUID]) async throws -> Void
    private let logger: Logger

    init(logger: Logger, write: @escaping @Sendable ([UUID]) async throws -> Void) {
        self.logger = logger
        self.write = write
    }

    /// Marks the key used now, soon; starts the writer unless it runs.
    func mark(_ id: UUID) {
        state.withLock { state in
            state.waiting.insert(id)
            if state.writer == nil { state.writer = Task { await self.writeAll() } }
        }
    }

    /// Returns once every key marked before the call has been written (or its write has failed).
    func settled() async {
        while let writer = state.withLock({ $0.writer }) { await writer.value }
    }

    private func writeAll() async {
        while true {
            try? await Task.sleep(for: Self.window)
            let ids = state.withLock { state -> [UUID] in
                let ids = Array(state.waiting.prefix(Self.batch))
                state.waiting.subtract(ids)
                if ids.isEmpty { state.writer = nil }
                return ids
            }
            if ids.isEmpty { return }
            do {
                try await write(ids)
            } catch {
                logger.warning("API keys' last use not marked", metadata: ["keys": "\(ids.count)", "error": "\(error)"])
            }
        }
    }
}
