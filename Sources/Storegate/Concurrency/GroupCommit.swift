import Foundation
import Synchronization

/// Group commit, per key: callers wait until their item is written, but the items that arrive while a
/// key's write runs share its next write. Under load, a key's writes start at most every
/// `minimumInterval`, so that each carries many items: a caller waits at most that much longer, and the
/// database does a fraction of the work. Keys are written independently (a tenant's failing write fails
/// only that tenant's callers).
final class GroupCommit<Key: Hashable & Sendable, Item: Sendable>: Sendable {
    typealias Waiter = (item: Item, continuation: CheckedContinuation<Void, any Error>)

    let minimumInterval: Duration
    private let write: @Sendable (Key, [Item]) async throws -> Void
    /// The items waiting, by key; a key is here exactly while its writer runs.
    private let waiting = Mutex<[Key: [Waiter]]>([:])

    init(minimumInterval: Duration = .milliseconds(2), write: @escaping @Sendable (Key, [Item]) async throws -> Void) {
        self.minimumInterval = minimumInterval
        self.write = write
    }

    /// Returns once `item` is written; throws what its write threw.
    func record(_ item: Item, key: Key) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let leads = waiting.withLock { waiting in
                guard waiting[key] == nil else {
                    waiting[key]!.append((item, continuation))
                    return false
                }
                waiting[key] = [(item, continuation)]
                return true
            }
            if leads { Task { await self.writeAll(key) } }
        }
    }

    /// Writes what waits for `key`, a batch at a time, until nothing is left.
    private func writeAll(_ key: Key) async {
        var previous: ContinuousClock.Instant?
        while true {
            if let previous, previous + minimumInterval > .now, waiting.withLock({ !($0[key]?.isEmpty ?? true) }) {
                try? await Task.sleep(until: previous + minimumInterval, clock: .continuous)
            }
            previous = .now
            let batch = waiting.withLock { waiting in
                let batch = waiting[key] ?? []
                waiting[key] = batch.isEmpty ? nil : []
                return batch
            }
            if batch.isEmpty { return }
            do {
                try await write(key, batch.map(\.item))
                for waiter in batch { waiter.continuation.resume() }
            } catch {
                for waiter in batch { waiter.continuation.resume(throwing: error) }
            }
        }
    }
}
