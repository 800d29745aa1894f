import Foundation
import Logging
import PostgresNIO
import Storegate

/// The job queue `storegate.jobs`. Workers claim due jobs with `FOR UPDATE SKIP LOCKED` and a lease: a
/// claimed job is pushed `lease` into the future and marked with its worker, which renews the lease while
/// it runs the job; a worker that dies leaves it to be claimed again once the lease runs out, before the
/// jobs that were due after it (such a job is still marked claimed, which puts it first).
struct JobRepository: Storegate.JobQueue {
    let conn: PostgresConnection
    let logger: Logger
    /// The tenant whose jobs are enqueued and completed by kind and ref.
    let tenantId: UUID?

    /// One statement for all; a job already queued is due at the earlier of the two times. `jobs` holds
    /// each kind and ref once.
    func enqueue(_ jobs: [(kind: Job.Kind, ref: String, due: Date)]) async throws {
        guard !jobs.isEmpty else { return }
        _ = try await conn.prepared(
            """
            INSERT INTO storegate.jobs (tenant_id, kind, ref, due_at)
            SELECT \(tenantId), kind, ref, due FROM unnest(\(jobs.map(\.kind.rawValue))::text[], \(jobs.map(\.ref))::text[], \(jobs.map(\.due))::timestamptz[])
                AS j(kind, ref, due)
            ON CONFLICT (tenant_id, kind, ref) DO UPDATE SET due_at = least(jobs.due_at, excluded.due_at)
            """, logger: logger
        ) { _ in () }
    }

    /// Rows are locked in the order of their id, as `release` locks them: a worker handing its jobs back
    /// beside the unit completing the same jobs waits for it rather than deadlocking with it.
    func complete(_ kind: Job.Kind, refs: [String]) async throws {
        guard !refs.isEmpty else { return }
        _ = try await conn.prepared(
            """
            DELETE FROM storegate.jobs WHERE id IN (
                SELECT id FROM storegate.jobs WHERE tenant_id = \(tenantId) AND kind = \(kind.rawValue) AND ref = ANY(\(refs)) ORDER BY id FOR UPDATE)
            """, logger: logger
        ) { _ in () }
    }

    /// The oldest due jobs are locked first; each notification tenant's further due notifications are then
    /// found by `jobs_tenant_due` (control migration 17), skipping what another worker holds.
    func claim(limit: Int, batch: Int, lease: Duration, worker: UUID) async throws -> [Job] {
        try await conn.all(
            """
            UPDATE storegate.jobs SET due_at = now() + make_interval(secs => \(lease.seconds)), attempts = attempts + 1, claimed_by = \(worker)
            WHERE id IN (
                WITH heads AS (
                    SELECT id, tenant_id, kind FROM storegate.jobs WHERE due_at <= now()
                    ORDER BY claimed_by IS NULL, due_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
                )
                SELECT id FROM heads
                UNION
                SELECT more.id FROM (SELECT DISTINCT tenant_id FROM heads WHERE kind = \(Job.Kind.processNotification.rawValue)) t
                CROSS JOIN LATERAL (
                    SELECT id FROM storegate.jobs j
                    WHERE j.tenant_id = t.tenant_id AND j.kind = \(Job.Kind.processNotification.rawValue) AND j.due_at <= now()
                    ORDER BY j.due_at LIMIT \(batch) FOR UPDATE SKIP LOCKED
                ) more
            )
            RETURNING id, tenant_id, kind, ref, attempts
            """, logger: logger
        ) { row in
            let r = try row.decode((Int64, UUID, String, String, Int).self)
            return Job.Kind(rawValue: r.2).map { Job(id: r.0, tenantId: r.1, kind: $0, ref: r.3, attempts: r.4) }
        }.compactMap { $0 }
    }

    /// Skips the jobs whose rows a unit holds (it is completing them): waiting for its commit, the renewal
    /// held the rows it had locked already, and the batches completing those waited in turn, a convoy at each
    /// renewal (at 1,000 tenants renewals took 104 ms and completions 1.4 ms on average). A job skipped keeps
    /// its lease until the next renewal, a quarter of a lease later.
    func renew(_ ids: [Int64], worker: UUID, lease: Duration) async throws {
        guard !ids.isEmpty else { return }
        try await conn.run(
            """
            UPDATE storegate.jobs SET due_at = now() + make_interval(secs => \(lease.seconds))
            WHERE id IN (SELECT id FROM storegate.jobs WHERE id = ANY(\(ids)) AND claimed_by = \(worker) FOR UPDATE SKIP LOCKED)
            """, logger: logger)
    }

    func release(_ ids: [Int64], worker: UUID) async throws {
        guard !ids.isEmpty else { return }
        try await conn.run(
            """
            UPDATE storegate.jobs SET due_at = now(), claimed_by = NULL
            WHERE id IN (SELECT id FROM storegate.jobs WHERE id = ANY(\(ids)) AND claimed_by = \(worker) ORDER BY id FOR UPDATE)
            """, logger: logger)
    }

    func complete(_ job: Job) async throws {
        try await conn.run("DELETE FROM storegate.jobs WHERE id = \(job.id)", logger: logger)
    }

    func reschedule(_ job: Job, at due: Date) async throws {
        try await conn.run(
            "UPDATE storegate.jobs SET due_at = \(due), claimed_by = NULL, attempts = 0, last_error = NULL WHERE id = \(job.id)", logger: logger)
    }

    /// One statement over the control schema's apps.
    func scheduleNotificationSweeps(byDefault: Bool) async throws -> Int {
        try await conn.all(
            """
            INSERT INTO storegate.jobs (tenant_id, kind, ref, due_at)
            SELECT a.tenant_id, \(Job.Kind.sweepNotifications.rawValue), a.id::text || '/' || e, now()
            FROM storegate.apps a JOIN storegate.tenants t ON t.id = a.tenant_id, unnest(a.environments) e
            WHERE t.status = 'active' AND coalesce(t.sweep_minutes > 0, \(byDefault))
            ON CONFLICT (tenant_id, kind, ref) DO NOTHING
            RETURNING 1
            """, logger: logger
        ) { _ in 1 }.count
    }

    /// One statement over the control schema's tenants.
    func scheduleDataRetention() async throws -> Int {
        try await conn.all(
            """
            INSERT INTO storegate.jobs (tenant_id, kind, ref, due_at)
            SELECT id, \(Job.Kind.dataRetention.rawValue), 'all', now() FROM storegate.tenants WHERE status = 'active'
            ON CONFLICT (tenant_id, kind, ref) DO NOTHING
            RETURNING 1
            """, logger: logger
        ) { _ in 1 }.count
    }

    func retry(_ job: Job, at due: Date, error: String) async throws {
        try await conn.run(
            "UPDATE storegate.jobs SET due_at = \(due), claimed_by = NULL, last_error = \(String(error.prefix(500))) WHERE id = \(job.id)",
            logger: logger)
    }
}

extension Duration {
    /// In seconds, fractions kept.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
