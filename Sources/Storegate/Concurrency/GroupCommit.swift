import Foundation
import Synchronization

/// Group commit, per key: callers wait until their item is written, but the items that arrive while a
/// key's write runs share its next write. Under load, a key's writes start at most every
/// `minimumInterval`, so that each carries many items: a caller waits at most that much longer, and the
/// database does a fraction of the work. Keys are written independently (a tenant's failing write fails
/// only that tenant's callers). Each caller is told its item's `Outcome` (what the write returned for it).
final class GroupCommit<Key: Hashable & Sendable, Item: Sendable, Outcome: Sendable>: Sendable {
    typealias Waiter = (item: Item, continuation: CheckedContinuation<Outcome, any Error>)

    let minimumInterval: Duration
    /// Writes the items; returns each one's outcome, in order.
    private let write: @Sendable (Key, [Item]) async throws -> [Outcome]
    /// The items waiting, by key; a key is here exactly while its writer runs.
    private let waiting = Mutex<[Key: [Waiter]]>([:])

    /// `outcomes` writes the items and returns each one's outcome, in order.
    init(minimumInterval: Duration = .milliseconds(2), outcomes: @escaping @Sendable (Key, [Item]) async throws -> [Outcome]) {
        self.minimumInterval = minimumInterval
        self.write = outcomes
    }

    init(minimumInterval: Duration = .milliseconds(2), write: @escaping @Sendable (Key, [Item]) async throws -> Void) where Outcome == Void {
        self.minimumInterval = minimumInterval
        self.write = { key, items in
            try await write(key, items)
            return items.map { _ in () }
        }
    }

    /// Returns once `item` is written, with its outcome; throws what its write threw.
    @discardableResult
    func record(_ item: Item, key: Key) async throws -> Outcome {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Outcome, any Error>) in
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
                let outcomes = try await write(key, batch.map(\.item))
                guard outcomes.count == batch.count else { throw GroupCommitMiscount(items: batch.count, outcomes: outcomes.count) }
                for (waiter, outcome) in zip(batch, outcomes) { waiter.continuation.resume(returning: outcome) }
            } catch {
                for waiter in batch { waiter.continuation.resume(throwing: error) }
            }
        }
    }
}

/// A group write that returned a number of outcomes other than its number of items (a bug).
struct GroupCommitMiscount: Error {
    let items: Int
    let outcomes: Int
}
