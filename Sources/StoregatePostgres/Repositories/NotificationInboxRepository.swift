import AppStoreServer
import Foundation
import Logging
import PostgresNIO
import Storegate

/// The inbox `storegate.notification_inbox`: what Apple's webhook delivered, before its tenant's processing
/// job takes it in. The acknowledgement's one statement, the same text for every tenant.
struct NotificationInboxRepository: NotificationInbox {
    let conn: PostgresConnection
    let logger: Logger

    func receive(_ n: StoredNotification, tenantId: UUID, processingDue due: Date) async throws -> Bool {
        try await receive([(n, tenantId)], processingDue: due).first ?? false
    }

    func receive(_ notifications: [(StoredNotification, tenantId: UUID)], processingDue due: Date) async throws -> [Bool] {
        guard !notifications.isEmpty else { return [] }
        var sql = ValueRows(
            """
            WITH received AS (
                INSERT INTO storegate.notification_inbox
                    (tenant_id, notification_uuid, app_id, environment, notification_type, subtype, signed_date, signed_payload, source)
                VALUES\u{20}
            """)
        sql.tuples(notifications) { row, item in
            let (n, tenantId) = item
            row.add(tenantId)
            row.add(n.notificationUUID)
            row.add(n.appId)
            row.add(n.environment.rawValue)
            row.add(n.notificationType.rawValue)
            row.add(n.subtype?.rawValue)
            row.add(n.signedDate)
            row.add(n.signedPayload)
            row.add(n.source.rawValue)
        }
        sql.append(
            """

                ON CONFLICT (tenant_id, notification_uuid) DO UPDATE SET notification_uuid = excluded.notification_uuid
                RETURNING tenant_id, notification_uuid, xmax = 0 AS new
            ), queued AS (
                INSERT INTO storegate.jobs (tenant_id, kind, ref, due_at)
                SELECT tenant_id, '\(Job.Kind.processNotification.rawValue)', upper(notification_uuid::text),\u{20}
            """)
        sql.append(value: due)
        sql.append(
            """
             FROM received WHERE new
                ON CONFLICT (tenant_id, kind, ref) DO UPDATE SET due_at = least(jobs.due_at, excluded.due_at)
            )
            SELECT tenant_id, notification_uuid FROM received WHERE new
            """)
        let new = Set(try await conn.prepared(sql.query, logger: logger) { row in try row.decode((UUID, UUID).self) }.map { "\($0.0) \($0.1)" })
        return notifications.map { new.contains("\($0.1) \($0.0.notificationUUID)") }
    }
}
