import Foundation
import Logging
import PostgresNIO

/// A job in the durable queue `storegate.jobs`: a pointer into a tenant's schema, due at a time.
public struct Job: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Apply a stored notification (`ref` is its `notificationUUID`).
        case processNotification = "process_notification"
        /// Answer a `CONSUMPTION_REQUEST` (`ref` is the request's id).
        case sendConsumption = "send_consumption"
    }

    public let id: Int64
    public let tenantId: UUID
    public let kind: Kind
    public let ref: String
    public let attempts: Int
}

/// The job queue. Workers claim due jobs with `FOR UPDATE SKIP LOCKED` and a lease: a claimed job is
/// pushed `lease` into the future, so a worker that dies leaves it to be claimed again.
public struct JobQueue: Sendable {
    let logger: Logger
    public init(logger: Logger) { self.logger = logger }

    /// Adds a job, or moves an existing one earlier (never later) when `due` is sooner.
    public func enqueue(tenantId: UUID, kind: Job.Kind, ref: String, due: Date, on conn: PostgresConnection) async throws {
        try await conn.run(
            """
            INSERT INTO storegate.jobs (tenant_id, kind, ref, due_at) VALUES (\(tenantId), \(kind.rawValue), \(ref), \(due))
            ON CONFLICT (tenant_id, kind, ref) DO UPDATE SET due_at = least(jobs.due_at, excluded.due_at)
            """, logger: logger)
    }

    /// Claims up to `limit` due jobs, oldest first, leasing each for `lease`.
    public func claim(limit: Int, lease: Duration, on conn: PostgresConnection) async throws -> [Job] {
        let seconds = Double(lease.components.seconds)
        var jobs: [Job] = []
        let rows = try await conn.query(
            """
            UPDATE storegate.jobs SET due_at = now() + make_interval(secs => \(seconds)), attempts = attempts + 1
            WHERE id IN (
                SELECT id FROM storegate.jobs WHERE due_at <= now() ORDER BY due_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
            )
            RETURNING id, tenant_id, kind, ref, attempts
            """, logger: logger)
        for try await r in rows.decode((Int64, UUID, String, String, Int).self) {
            guard let kind = Job.Kind(rawValue: r.2) else { continue }
            jobs.append(Job(id: r.0, tenantId: r.1, kind: kind, ref: r.3, attempts: r.4))
        }
        return jobs
    }

    public func complete(_ job: Job, on conn: PostgresConnection) async throws {
        try await conn.run("DELETE FROM storegate.jobs WHERE id = \(job.id)", logger: logger)
    }

    /// Completes the job of this kind and ref, if there is one (used after inline processing).
    public func complete(tenantId: UUID, kind: Job.Kind, ref: String, on conn: PostgresConnection) async throws {
        try await conn.run("DELETE FROM storegate.jobs WHERE tenant_id = \(tenantId) AND kind = \(kind.rawValue) AND ref = \(ref)", logger: logger)
    }

    public func retry(_ job: Job, at due: Date, error: String, on conn: PostgresConnection) async throws {
        try await conn.run("UPDATE storegate.jobs SET due_at = \(due), last_error = \(String(error.prefix(500))) WHERE id = \(job.id)", logger: logger)
    }

    /// Jobs waiting for a tenant, for inspection.
    public func pending(tenantId: UUID, on conn: PostgresConnection) async throws -> [(kind: String, ref: String, due: Date, attempts: Int, lastError: String?)] {
        var out: [(String, String, Date, Int, String?)] = []
        let rows = try await conn.query(
            "SELECT kind, ref, due_at, attempts, last_error FROM storegate.jobs WHERE tenant_id = \(tenantId) ORDER BY due_at", logger: logger)
        for try await r in rows.decode((String, String, Date, Int, String?).self) { out.append(r) }
        return out.map { (kind: $0.0, ref: $0.1, due: $0.2, attempts: $0.3, lastError: $0.4) }
    }
}
