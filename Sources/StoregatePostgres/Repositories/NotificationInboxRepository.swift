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
        try await conn.prepared(
            """
            WITH received AS (
                INSERT INTO storegate.notification_inbox
                    (tenant_id, notification_uuid, app_id, environment, notification_type, subtype, signed_date, signed_payload, source)
                VALUES (\(tenantId), \(n.notificationUUID), \(n.appId), \(n.environment.rawValue), \(n.notificationType.rawValue), \(n.subtype?.rawValue),
                        \(n.signedDate), \(n.signedPayload), \(n.source.rawValue))
                ON CONFLICT (tenant_id, notification_uuid) DO UPDATE SET notification_uuid = excluded.notification_uuid
                RETURNING notification_uuid, xmax = 0 AS new
            )
            INSERT INTO storegate.jobs (tenant_id, kind, ref, due_at)
            SELECT \(tenantId), \(Job.Kind.processNotification.rawValue), upper(notification_uuid::text), \(due) FROM received WHERE new
            ON CONFLICT (tenant_id, kind, ref) DO UPDATE SET due_at = least(jobs.due_at, excluded.due_at)
            RETURNING 1
            """, logger: logger
        ) { _ in 1 }.count == 1
    }
}
