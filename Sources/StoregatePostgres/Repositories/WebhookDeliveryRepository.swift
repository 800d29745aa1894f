import Foundation
import PostgresNIO
import Storegate

/// Deliveries of the tenant's events to its endpoints, and their attempts (tenant migration 12).
struct WebhookDeliveryRepository: WebhookDeliveryStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    /// Two statements in the unit's transaction: the endpoint's row is locked (`NO KEY UPDATE`, which
    /// events being appended do not wait for), so claims for one endpoint take turns and each sees the
    /// leases of the one before; then up to `limit` minus those in flight are leased.
    func claim(endpointId: UUID, limit: Int, lease: Duration) async throws -> [DueDelivery] {
        guard
            try await scope.first(
                "SELECT 1 FROM storegate.webhook_endpoints WHERE id = \(endpointId) AND tenant_id = \(scope.tenantId) FOR NO KEY UPDATE", as: Int.self)
                != nil
        else { return [] }
        let seconds = lease.seconds
        return try await scope.all(
            """
            WITH due AS (
                SELECT id FROM \(unescaped: schema).webhook_deliveries
                WHERE endpoint_id = \(endpointId) AND status = 'pending' AND next_attempt_at <= now()
                ORDER BY next_attempt_at, event_sequence
                LIMIT greatest(0, \(limit) - (SELECT count(*) FROM \(unescaped: schema).webhook_deliveries
                                              WHERE endpoint_id = \(endpointId) AND status = 'pending' AND leased_until > now()))
                FOR UPDATE SKIP LOCKED
            )
            UPDATE \(unescaped: schema).webhook_deliveries d
            SET leased_until = now() + make_interval(secs => \(seconds)), next_attempt_at = now() + make_interval(secs => \(seconds))
            FROM due WHERE d.id = due.id
            RETURNING d.id, d.event_sequence, d.attempts, d.retry_from
            """
        ) { row in
            let r = try row.decode((UUID, Int64, Int, Date).self)
            return DueDelivery(id: r.0, eventSequence: r.1, attempts: r.2, retryFrom: r.3)
        }
    }

    /// One statement for a batch's attempts and each delivery's new state (finished when its last
    /// attempt was made, the epoch standing for not finished; the next attempt's time is read only while
    /// pending), and one for the endpoint's health where it changes (failing once a delivery is
    /// dead-lettered, healthy again after a success). Optional values travel as text, an empty string for none.
    func record(_ results: [DeliveryResult], endpointId: UUID) async throws {
        guard !results.isEmpty else { return }
        try await scope.prepared(
            """
            WITH r AS (
                SELECT * FROM unnest(\(results.map(\.deliveryId))::uuid[], \(results.map(\.attempt.number))::int[],
                                     \(results.map(\.attempt.attemptedAt))::timestamptz[], \(results.map { $0.attempt.statusCode.map(String.init) ?? "" })::text[],
                                     \(results.map(\.attempt.latencyMilliseconds))::int[], \(results.map { $0.attempt.error ?? "" })::text[],
                                     \(results.map(\.outcome.rawValue))::text[], \(results.map { $0.next ?? $0.attempt.attemptedAt })::timestamptz[],
                                     \(results.map { $0.outcome == .pending ? Date(timeIntervalSince1970: 0) : $0.attempt.attemptedAt })::timestamptz[])
                    AS r(id, number, attempted_at, status_code, latency_ms, error, outcome, next, finished)
            ), attempt AS (
                INSERT INTO \(unescaped: schema).webhook_attempts (delivery_id, number, attempted_at, status_code, latency_ms, error)
                SELECT id, number, attempted_at, nullif(status_code, '')::int, latency_ms, nullif(error, '') FROM r
                ON CONFLICT DO NOTHING
            )
            UPDATE \(unescaped: schema).webhook_deliveries d
            SET attempts = greatest(d.attempts, r.number), status = r.outcome, leased_until = NULL, next_attempt_at = r.next,
                finished_at = nullif(r.finished, 'epoch'::timestamptz)
            FROM r WHERE d.id = r.id
            """)
        if results.contains(where: { $0.outcome == .failed }) {
            try await scope.prepared(
                "UPDATE storegate.webhook_endpoints SET failing_since = now() WHERE id = \(endpointId) AND tenant_id = \(scope.tenantId) AND failing_since IS NULL"
            )
        } else if results.contains(where: { $0.outcome == .delivered }) {
            try await scope.prepared(
                """
                UPDATE storegate.webhook_endpoints SET failing_since = NULL
                WHERE id = \(endpointId) AND tenant_id = \(scope.tenantId) AND failing_since IS NOT NULL
                """)
        }
    }

    /// The next pending delivery's time, then the job: removed when there is none, else due then. The
    /// job is still this run's while its lease lies ahead (`due_at` after the statement's start; not
    /// the transaction's, which an append that began later may precede); appending events makes
    /// it due at once (`due_at` in the past), and then it is left to run again. The check is on the
    /// job's row, which PostgreSQL reads again if a concurrent append changed it; an append whose
    /// deliveries the first read missed makes the job due (or anew) after this.
    func settle(_ job: Job, endpointId: UUID) async throws {
        let next =
            try await scope.first(
                "SELECT min(next_attempt_at) FROM \(unescaped: schema).webhook_deliveries WHERE endpoint_id = \(endpointId) AND status = 'pending'",
                as: Date?.self) ?? nil
        if let next {
            try await scope.run(
                "UPDATE storegate.jobs SET due_at = \(next), claimed_by = NULL WHERE id = \(job.id) AND due_at > statement_timestamp()")
        } else {
            try await scope.run("DELETE FROM storegate.jobs WHERE id = \(job.id) AND due_at > statement_timestamp()")
        }
    }

    func list(endpointId: UUID?, status: WebhookDelivery.Status?, before: UUID?, limit: Int) async throws -> [WebhookDelivery] {
        try await scope.all(
            """
            SELECT d.id, d.endpoint_id, d.event_sequence, e.id, e.type, d.status, d.next_attempt_at, d.created_at, d.finished_at,
                   coalesce((SELECT json_agg(json_build_object('n', a.number, 'at', a.attempted_at, 'code', a.status_code, 'ms', a.latency_ms, 'error', a.error)
                                      ORDER BY a.number)::text
                             FROM \(unescaped: schema).webhook_attempts a WHERE a.delivery_id = d.id), '[]')
            FROM \(unescaped: schema).webhook_deliveries d JOIN \(unescaped: schema).events e ON e.sequence = d.event_sequence
            WHERE (\(endpointId)::uuid IS NULL OR d.endpoint_id = \(endpointId)) AND (\(status?.rawValue)::text IS NULL OR d.status = \(status?.rawValue))
              AND (\(before)::uuid IS NULL OR (d.created_at, d.id) < (SELECT created_at, id FROM \(unescaped: schema).webhook_deliveries WHERE id = \(before)))
            ORDER BY d.created_at DESC, d.id DESC LIMIT \(limit)
            """
        ) { row in
            let r = try row.decode((UUID, UUID, Int64, UUID, String, String, Date, Date, Date?, String).self)
            guard let type = Event.Kind(rawValue: r.4), let status = WebhookDelivery.Status(rawValue: r.5) else {
                throw DatabaseError.unreadable("delivery \(r.0) has an unknown type or status")
            }
            return WebhookDelivery(
                id: r.0, endpointId: r.1, eventSequence: r.2, eventId: r.3, eventType: type, status: status, nextAttemptAt: status == .pending ? r.6 : nil,
                createdAt: r.7, finishedAt: r.8, attempts: try Self.attempts(r.9))
        }
    }

    private struct StoredAttempt: Decodable {
        let n: Int
        let at: String
        let code: Int?
        let ms: Int
        let error: String?
    }

    static func attempts(_ json: String) throws -> [WebhookDelivery.Attempt] {
        try JSONDecoder().decode([StoredAttempt].self, from: Data(json.utf8)).map {
            WebhookDelivery.Attempt(number: $0.n, attemptedAt: try Self.timestamp($0.at), statusCode: $0.code, latencyMilliseconds: $0.ms, error: $0.error)
        }
    }

    /// `json_build_object` writes timestamps as `2026-11-25T10:00:00.123456+00:00`.
    static func timestamp(_ text: String) throws -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else { throw DatabaseError.unreadable("attempt time \(text)") }
        return date
    }

    func redeliver(id: UUID) async throws -> (endpointId: UUID, found: Bool) {
        let endpoint = try await scope.first(
            """
            UPDATE \(unescaped: schema).webhook_deliveries
            SET status = 'pending', next_attempt_at = now(), retry_from = now(), leased_until = NULL, finished_at = NULL
            WHERE id = \(id) RETURNING endpoint_id
            """, as: UUID.self)
        return (endpoint ?? UUID(), endpoint != nil)
    }

    func redeliverFailed(endpointId: UUID?, since: Date) async throws -> (endpointIds: [UUID], count: Int) {
        let touched = try await scope.column(
            """
            UPDATE \(unescaped: schema).webhook_deliveries d
            SET status = 'pending', next_attempt_at = now(), retry_from = now(), leased_until = NULL, finished_at = NULL
            FROM \(unescaped: schema).events e
            WHERE e.sequence = d.event_sequence AND d.status = 'failed' AND e.created_at >= \(since)
              AND (\(endpointId)::uuid IS NULL OR d.endpoint_id = \(endpointId))
            RETURNING d.endpoint_id
            """, as: UUID.self)
        return (Array(Set(touched)), touched.count)
    }
}

extension PostgresTenantUnit {
    var webhookDeliveries: any WebhookDeliveryStore { WebhookDeliveryRepository(scope: scope) }
}
