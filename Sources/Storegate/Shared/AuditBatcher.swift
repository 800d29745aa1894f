import Foundation
import Synchronization

/// Group commit for hot-path audit entries (offer signing): callers wait until their entry is committed,
/// but concurrent callers share one INSERT, and identical entries of one flush (same actor, tenant,
/// action and detail) share one row whose detail carries their `count`. Nothing is acknowledged before
/// its audit entry is durable.
final class AuditBatcher: Sendable {
    struct Entry: Hashable, Sendable {
        let actor: String
        let tenantId: UUID
        let action: String
        let detail: [String: String]
    }

    private struct State {
        var pending: [(Entry, CheckedContinuation<Void, any Error>)] = []
        var flushing = false
    }

    static let minimumInterval = Duration.milliseconds(2)

    private let persistence: any Persistence
    private let state = Mutex(State())

    init(persistence: any Persistence) {
        self.persistence = persistence
    }

    func record(_ entry: Entry) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let leads = state.withLock { state in
                state.pending.append((entry, continuation))
                guard !state.flushing else { return false }
                state.flushing = true
                return true
            }
            if leads { Task { await self.flush() } }
        }
    }

    /// Writes what is pending, one statement at a time, until nothing is left. Under load, statements
    /// start at most every `minimumInterval`, so that each carries many entries: a caller waits at most
    /// that much longer, and the database does a fraction of the work.
    private func flush() async {
        var previous: ContinuousClock.Instant?
        while true {
            if let previous, previous + Self.minimumInterval > .now, state.withLock({ !$0.pending.isEmpty }) {
                try? await Task.sleep(until: previous + Self.minimumInterval, clock: .continuous)
            }
            previous = .now
            let batch = state.withLock { state in
                let batch = state.pending
                state.pending.removeAll(keepingCapacity: true)
                if batch.isEmpty { state.flushing = false }
                return batch
            }
            if batch.isEmpty { return }
            do {
                let rows = try Self.rows(batch.map(\.0))
                try await persistence.control(.read) { try await $0.audit(rows) }
                for (_, continuation) in batch { continuation.resume() }
            } catch {
                for (_, continuation) in batch { continuation.resume(throwing: error) }
            }
        }
    }

    /// One row per distinct entry, in order of first appearance, each with how many it stands for.
    static func rows(_ entries: [Entry]) throws -> [NewAuditEntry] {
        var position: [Entry: Int] = [:]
        var distinct: [(entry: Entry, count: Int)] = []
        for entry in entries {
            if let i = position[entry] {
                distinct[i].count += 1
            } else {
                position[entry] = distinct.count
                distinct.append((entry, 1))
            }
        }
        let encoder = JSONEncoder()
        return try distinct.map { entry, count in
            let json = try encoder.encode(CountedDetail(detail: entry.detail, count: count))
            return NewAuditEntry(actor: entry.actor, tenantId: entry.tenantId, action: entry.action, detail: String(decoding: json, as: UTF8.self))
        }
    }

    /// An entry's detail with its `count` beside the other members.
    struct CountedDetail: Encodable {
        let detail: [String: String]
        let count: Int

        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in detail where key != "count" { try container.encode(value, forKey: Key(stringValue: key)) }
            try container.encode(count, forKey: Key(stringValue: "count"))
        }
    }
}
