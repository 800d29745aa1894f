import Foundation
import PostgresNIO
import Storegate

/// The data-retention job's deletions in one tenant: its schema's notifications, events and webhook
/// deliveries, and its rows of the control schema's audit log and console sessions. Every statement picks
/// at most `limit` rows oldest first through an index (migrations tenant 28, control 14 and 15) and skips
/// rows another transaction holds.
struct DataRetentionRepository: DataRetentionStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    func dropNotificationPayloads(receivedBefore before: Date, limit: Int) async throws -> Int {
        try await count(
            """
            UPDATE \(unescaped: schema).notifications SET signed_payload = NULL
            WHERE notification_uuid IN (
                SELECT notification_uuid FROM \(unescaped: schema).notifications
                WHERE signed_payload IS NOT NULL AND processed_at IS NOT NULL AND received_at < \(before)
                ORDER BY received_at LIMIT \(limit) FOR UPDATE SKIP LOCKED)
            RETURNING 1
            """)
    }

    func deleteWebhookDeliveries(finishedBefore before: Date, limit: Int) async throws -> Int {
        try await count(
            """
            DELETE FROM \(unescaped: schema).webhook_deliveries
            WHERE id IN (
                SELECT id FROM \(unescaped: schema).webhook_deliveries
                WHERE status <> 'pending' AND finished_at < \(before)
                ORDER BY finished_at LIMIT \(limit) FOR UPDATE SKIP LOCKED)
            RETURNING 1
            """)
    }

    /// One statement: the deliveries go first (their foreign key has no cascade; it is checked at the
    /// statement's end), then the events.
    func deleteEvents(createdBefore before: Date, limit: Int) async throws -> Int {
        try await count(
            """
            WITH doomed AS (
                SELECT sequence FROM \(unescaped: schema).events WHERE created_at < \(before)
                ORDER BY created_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
            ), deliveries AS (
                DELETE FROM \(unescaped: schema).webhook_deliveries d USING doomed WHERE d.event_sequence = doomed.sequence
            )
            DELETE FROM \(unescaped: schema).events e USING doomed WHERE e.sequence = doomed.sequence
            RETURNING 1
            """)
    }

    /// The log refuses a DELETE unless the transaction says it is retention's (control migration 14): the
    /// setting is local to this unit's transaction.
    func deleteAuditEntries(writtenBefore before: Date, limit: Int) async throws -> Int {
        try await scope.run("SELECT set_config('storegate.audit_rewrite', 'on', true)")
        return try await count(
            """
            DELETE FROM storegate.audit_log
            WHERE id IN (
                SELECT id FROM storegate.audit_log WHERE tenant_id = \(scope.tenantId) AND at < \(before)
                ORDER BY at LIMIT \(limit) FOR UPDATE SKIP LOCKED)
            RETURNING 1
            """)
    }

    func deleteConsoleSessions(endedBefore before: Date, limit: Int) async throws -> Int {
        try await count(
            """
            DELETE FROM storegate.console_sessions
            WHERE secret_hash IN (
                SELECT s.secret_hash FROM storegate.console_sessions s JOIN storegate.console_users u ON u.id = s.user_id
                WHERE u.tenant_id = \(scope.tenantId) AND s.expires_at < \(before)
                ORDER BY s.expires_at LIMIT \(limit) FOR UPDATE OF s SKIP LOCKED)
            RETURNING 1
            """)
    }

    func recordDeleted(_ kind: DataRetention.Kind, count: Int, before: Date) async throws {
        try await scope.run(
            """
            INSERT INTO \(unescaped: schema).data_retention_deleted AS d (kind, deleted, deleted_before) VALUES (\(kind.rawValue), \(count), \(before))
            ON CONFLICT (kind) DO UPDATE
            SET deleted = d.deleted + excluded.deleted, deleted_before = greatest(d.deleted_before, excluded.deleted_before), last_run_at = now()
            """)
    }

    func deleted() async throws -> [DataRetention.Kind: DataRetention.Deleted] {
        let rows = try await scope.all("SELECT kind, deleted, deleted_before, last_run_at FROM \(unescaped: schema).data_retention_deleted") { row in
            let r = try row.decode((String, Int64, Date, Date).self)
            return (DataRetention.Kind(rawValue: r.0), DataRetention.Deleted(count: r.1, before: r.2, lastRunAt: r.3))
        }
        return Dictionary(rows.compactMap { kind, deleted in kind.map { ($0, deleted) } }, uniquingKeysWith: { first, _ in first })
    }

    private func count(_ query: PostgresQuery) async throws -> Int {
        try await scope.all(query) { _ in 1 }.count
    }
}

extension PostgresTenantUnit {
    var dataRetention: any DataRetentionStore { DataRetentionRepository(scope: scope) }
}
