import AppStoreServer
import Foundation
import KeyVault

/// The durable job queue. Claimed jobs are leased to a worker, which renews the lease while it runs
/// them: a worker that dies leaves them to be claimed again once the lease runs out.
public protocol JobQueue: Sendable {
    /// Claims the `limit` jobs due longest, and for each tenant with a notification among them its other due
    /// notifications, oldest first, up to `batch` of them: with a backlog spread over many tenants, the oldest
    /// jobs are each another tenant's, and a batch of one notification pays its tenant's statements alone.
    func claim(limit: Int, batch: Int, lease: Duration, worker: UUID) async throws -> [Job]
    /// Pushes the lease of the jobs `worker` still holds `lease` into the future.
    func renew(_ ids: [Int64], worker: UUID, lease: Duration) async throws
    /// Hands back jobs `worker` holds but will not finish, due at once.
    func release(_ ids: [Int64], worker: UUID) async throws
    func complete(_ job: Job) async throws
    func retry(_ job: Job, at due: Date, error: String) async throws
    /// Makes a recurring job due again at `due`, its attempts and error cleared.
    func reschedule(_ job: Job, at due: Date) async throws
    /// Adds the notification sweep of every app in each of its environments that has none, due at once:
    /// of active tenants whose `sweepMinutes` is above 0, or unset when `byDefault`.
    func scheduleNotificationSweeps(byDefault: Bool) async throws -> Int
    /// Adds the data-retention job of every active tenant that has none, due at once.
    func scheduleDataRetention() async throws -> Int
}
