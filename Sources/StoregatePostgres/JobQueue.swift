import Foundation
import Logging
import PostgresNIO
import Storegate

/// The job queue `storegate.jobs`. Workers claim due jobs with `FOR UPDATE SKIP LOCKED` and a lease: a
/// claimed job is pushed `lease` into the future, so a worker that dies leaves it to be claimed again.
struct JobRepository: Storegate.JobQueue {
    let conn: PostgresConnection
    let logger: Logger
    /// The tenant whose jobs are enqueued and completed by kind and ref.
    let tenantId: UUID?

    func enqueue(_ kind: Job.Kind, ref: String, due: Date) async throws {
        try await conn.run(
            """
            INSERT INTO storegate.jobs (tenant_id, kind, ref, due_at) VALUES (\(tenantId), \(kind.rawValue), \(ref), \(due))
            ON CONFLICT (tenant_id, kind, ref) DO UPDATE SET due_at = least(jobs.due_at, excluded.due_at)
            """, logger: logger)
    }

    func complete(_ kind: Job.Kind, refs: [String]) async throws {
        guard !refs.isEmpty else { return }
        _ = try await conn.hot(
            "DELETE FROM storegate.jobs WHERE tenant_id = \(tenantId) AND kind = \(kind.rawValue) AND ref = ANY(\(refs))", logger: logger
        ) { _ in () }
    }

    func claim(limit: Int, lease: Duration) async throws -> [Job] {
        let seconds = Double(lease.components.seconds)
        return try await conn.all(
            """
            UPDATE storegate.jobs SET due_at = now() + make_interval(secs => \(seconds)), attempts = attempts + 1
            WHERE id IN (
                SELECT id FROM storegate.jobs WHERE due_at <= now() ORDER BY due_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
            )
            RETURNING id, tenant_id, kind, ref, attempts
            """, logger: logger
        ) { row in
            let r = try row.decode((Int64, UUID, String, String, Int).self)
            return Job.Kind(rawValue: r.2).map { Job(id: r.0, tenantId: r.1, kind: $0, ref: r.3, attempts: r.4) }
        }.compactMap { $0 }
    }

    func complete(_ job: Job) async throws {
        try await conn.run("DELETE FROM storegate.jobs WHERE id = \(job.id)", logger: logger)
    }

    func retry(_ job: Job, at due: Date, error: String) async throws {
        try await conn.run("UPDATE storegate.jobs SET due_at = \(due), last_error = \(String(error.prefix(500))) WHERE id = \(job.id)", logger: logger)
    }
}
