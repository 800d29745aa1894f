import Foundation
import Synchronization

/// Group commit, per key: callers wait until their item is written, but the items that arrive while a
/// key's write runs share its next write. Under load, a key's writes start at most every
/// `minimumInterval`, so that each carries many items: a caller waits at most that much longer, and the
/// database does a fraction of the work. Keys are written independently (a tenant's failing write fails
/// only that tenant's callers). Each caller is told its items' `Outcome`s (what the write returned for
/// them); a caller with many items waits once for all of them.
final class GroupCommit<Key: Hashable & Sendable, Item: Sendable, Outcome: Sendable>: Sendable {
    typealias Waiter = (items: [Item], continuation: CheckedContinuation<[Outcome], any Error>)

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
        try await record([item], key: key)[0]
    }

    /// Returns once all of `items` are written (by one write), with their outcomes in order.
    @discardableResult
    func record(_ items: [Item], key: Key) async throws -> [Outcome] {
        if items.isEmpty { return [] }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[Outcome], any Error>) in
            let leads = waiting.withLock { waiting in
                guard waiting[key] == nil else {
                    waiting[key]!.append((items, continuation))
                    return false
                }
                waiting[key] = [(items, continuation)]
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
                let items = batch.flatMap(\.items)
                let outcomes = try await write(key, items)
                guard outcomes.count == items.count else { throw GroupCommitMiscount(items: items.count, outcomes: outcomes.count) }
                var next = outcomes.startIndex
                for waiter in batch {
                    waiter.continuation.resume(returning: Array(outcomes[next..<next + waiter.items.count]))
                    next += waiter.items.count
                }
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
