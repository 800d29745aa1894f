import Synchronization

/// The audit entries of one response, written together just before it is sent. A batch of a hundred
/// signatures then waits for one commit: each waiting for its own entry held a batch's calls in turn
/// (eight of them at a time) and suspended and resumed every one of them.
///
/// Nothing is acknowledged before its audit entry is durable, provided that what `body` made is sent only
/// when `run` gives back no `unwritten` error: otherwise the caller answers with that error, not with what
/// was audited (and reports its calls as failed with it). Outside `run` an entry is written before its call
/// returns, as before.
public enum DeferredAudits {
    @TaskLocal static var current: Collector?

    /// Runs `body` with its audit entries (and those of its child tasks) held, then writes them all: what
    /// `body` returned, and the error the write threw, if it did.
    public static func run<T: Sendable>(_ body: @Sendable () async -> T) async -> (value: T, unwritten: (any Error)?) {
        let collector = Collector()
        let value = await $current.withValue(collector) { await body() }
        do {
            try await collector.write()
            return (value, nil)
        } catch {
            return (value, error)
        }
    }

    final class Collector: Sendable {
        /// nil once written: an entry that comes later (from a task that outlived `run`, which task-local
        /// values reach too) is not held but written by its own caller.
        private let held = Mutex<[(batcher: AuditBatcher, entry: AuditBatcher.Entry)]?>([])

        /// Whether the entry is held (false: the caller must write it itself).
        func hold(_ entry: AuditBatcher.Entry, for batcher: AuditBatcher) -> Bool {
            held.withLock { held in
                guard held != nil else { return false }
                held!.append((batcher, entry))
                return true
            }
        }

        /// Each batcher's entries in one write of its own (a response almost always has one).
        func write() async throws {
            let entries = held.withLock { held in
                defer { held = nil }
                return held ?? []
            }
            var byBatcher: [ObjectIdentifier: (batcher: AuditBatcher, entries: [AuditBatcher.Entry])] = [:]
            for (batcher, entry) in entries { byBatcher[ObjectIdentifier(batcher), default: (batcher, [])].entries.append(entry) }
            for (batcher, entries) in byBatcher.values { try await batcher.record(entries) }
        }
    }
}
