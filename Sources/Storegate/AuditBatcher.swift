import Foundation
import Synchronization
import StoregatePostgres

/// Group commit for hot-path audit entries (offer signing): callers wait until their entry is committed,
/// but concurrent callers share one INSERT. Nothing is acknowledged before its audit entry is durable.
final class AuditBatcher: Sendable {
    private struct State {
        var pending: [(AuditLog.NewEntry, CheckedContinuation<Void, any Error>)] = []
        var flushing = false
    }

    private let database: Database
    private let audit: AuditLog
    private let state = Mutex(State())

    init(database: Database, audit: AuditLog) {
        self.database = database
        self.audit = audit
    }

    func record(_ entry: AuditLog.NewEntry) async throws {
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

    /// Writes what is pending, one statement at a time, until nothing is left.
    private func flush() async {
        while true {
            let batch = state.withLock { state in
                let batch = state.pending
                state.pending.removeAll(keepingCapacity: true)
                if batch.isEmpty { state.flushing = false }
                return batch
            }
            if batch.isEmpty { return }
            do {
                try await database.withConnection { try await audit.record(batch.map(\.0), on: $0) }
                for (_, continuation) in batch { continuation.resume() }
            } catch {
                for (_, continuation) in batch { continuation.resume(throwing: error) }
            }
        }
    }
}
