import Foundation

/// Deletes what is past a tenant's windows, one small batch per call: each call is one statement that
/// finds its rows through an index, oldest first, and touches at most `limit` of them, so it holds its
/// locks briefly and never on rows being written now. Each returns how many rows it deleted.
public protocol DataRetentionStore: Sendable {
    /// Drops the raw signed payload of processed notifications received before `before`; the rows stay.
    func dropNotificationPayloads(receivedBefore before: Date, limit: Int) async throws -> Int
    /// Deletes finished webhook deliveries (delivered or given up) that finished before `before`, with their attempts.
    func deleteWebhookDeliveries(finishedBefore before: Date, limit: Int) async throws -> Int
    /// Deletes events created before `before`, their webhook deliveries first.
    func deleteEvents(createdBefore before: Date, limit: Int) async throws -> Int
    /// Deletes the tenant's audit entries written before `before`: the only deletion the audit log allows.
    func deleteAuditEntries(writtenBefore before: Date, limit: Int) async throws -> Int
    /// Deletes the sessions of the tenant's console people that ended (expired or signed out) before `before`.
    func deleteConsoleSessions(endedBefore before: Date, limit: Int) async throws -> Int
    /// Adds `count` to what was deleted of `kind`, everything before `before` now gone.
    func recordDeleted(_ kind: DataRetention.Kind, count: Int, before: Date) async throws
    /// What the job deleted so far, by kind: how many rows, everything before which date, when it last ran.
    func deleted() async throws -> [DataRetention.Kind: DataRetention.Deleted]
}

extension DataRetention {
    /// What the job deleted of one kind over the tenant's life.
    public struct Deleted: Sendable, Equatable {
        public let count: Int64
        /// Everything of the kind older than this is gone.
        public let before: Date
        public let lastRunAt: Date

        public init(count: Int64, before: Date, lastRunAt: Date) {
            self.count = count
            self.before = before
            self.lastRunAt = lastRunAt
        }
    }
}
