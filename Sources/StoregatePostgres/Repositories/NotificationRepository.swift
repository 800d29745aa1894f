import AppStoreServer
import Foundation
import Logging
import PostgresNIO
import Storegate

/// Notifications in the tenant's schema, keyed by `notificationUUID`, and the tenant's in the inbox.
struct NotificationRepository: NotificationStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    static let columns = """
        notification_uuid, app_id, environment, notification_type, subtype, signed_date, signed_payload, source, received_at,
        processed_at, processing_error
        """

    /// One statement, so atomic without a transaction: one round trip is all Apple waits for.
    func insert(_ n: StoredNotification, processingDue due: Date) async throws -> Bool {
        try await scope.prepared(
            """
            WITH stored AS (
                INSERT INTO \(unescaped: schema).notifications
                    (notification_uuid, app_id, environment, notification_type, subtype, signed_date, signed_payload, source)
                VALUES (\(n.notificationUUID), \(n.appId), \(n.environment.rawValue), \(n.notificationType.rawValue), \(n.subtype?.rawValue),
                        \(n.signedDate), \(n.signedPayload), \(n.source.rawValue))
                ON CONFLICT (notification_uuid) DO UPDATE SET notification_uuid = excluded.notification_uuid
                RETURNING notification_uuid, xmax = 0 AS new
            )
            INSERT INTO storegate.jobs (tenant_id, kind, ref, due_at)
            SELECT \(scope.tenantId), \(Job.Kind.processNotification.rawValue), upper(notification_uuid::text), \(due) FROM stored WHERE new
            ON CONFLICT (tenant_id, kind, ref) DO UPDATE SET due_at = least(jobs.due_at, excluded.due_at)
            RETURNING 1
            """
        ) { _ in 1 }.count == 1
    }

    /// One statement: what it takes from the inbox is in the tenant's notifications when it commits, and
    /// nowhere else. A notification already there stays as it is (its processing is not undone).
    func takeFromInbox(_ uuids: [UUID]) async throws {
        guard !uuids.isEmpty else { return }
        try await scope.prepared(
            """
            WITH taken AS (
                DELETE FROM storegate.notification_inbox
                WHERE tenant_id = \(scope.tenantId) AND notification_uuid = ANY(\(uuids))
                RETURNING \(unescaped: Self.received)
            )
            INSERT INTO \(unescaped: schema).notifications (\(unescaped: Self.received))
            SELECT * FROM taken
            ON CONFLICT (notification_uuid) DO NOTHING
            """)
    }

    /// Those waiting in the inbox included, as not processed. Reads never take notifications in: only the
    /// processing unit does, after it claimed their jobs.
    func list(appId: UUID?, limit: Int) async throws -> [StoredNotification] {
        try await rows(
            """
            SELECT \(unescaped: Self.columns) FROM \(unescaped: schema).notifications WHERE (\(appId)::uuid IS NULL OR app_id = \(appId))
            UNION ALL
            SELECT \(unescaped: Self.inboxColumns) FROM storegate.notification_inbox
            WHERE tenant_id = \(scope.tenantId) AND (\(appId)::uuid IS NULL OR app_id = \(appId))
              AND notification_uuid NOT IN (
                  SELECT notification_uuid FROM \(unescaped: schema).notifications
                  WHERE notification_uuid IN (SELECT notification_uuid FROM storegate.notification_inbox WHERE tenant_id = \(scope.tenantId)))
            ORDER BY received_at DESC, notification_uuid LIMIT \(limit)
            """)
    }

    /// What an inbox row holds of a notification: its columns as received, before processing.
    static let received = "notification_uuid, app_id, environment, notification_type, subtype, signed_date, signed_payload, source, received_at"

    /// An inbox row as a notification row: not processed.
    static let inboxColumns = received + ", NULL::timestamptz, NULL::text"

    private func rows(_ query: TypedQuery, prepared: Bool = false) async throws -> [StoredNotification] {
        let make = { (row: PostgresRow) throws -> StoredNotification in
            let r = try row.decode((UUID, UUID, String, String, String?, Date?, String?, String, Date, Date?, String?).self)

            guard let source = StoredNotification.Source(rawValue: r.7) else {
                throw DatabaseError.unreadable("a notification has an unknown source \(r.7)")
            }
            return StoredNotification(
                notificationUUID: r.0, appId: r.1, environment: AppStoreEnvironment(rawValue: r.2), notificationType: NotificationTypeV2(rawValue: r.3),
                subtype: r.4.map(Subtype.init(rawValue:)), signedDate: r.5, signedPayload: r.6, source: source, receivedAt: r.8,
                processedAt: r.9, processingError: r.10)
        }
        return prepared ? try await scope.prepared(query, make) : try await scope.all(query.query, make)
    }

    /// Read where they are, without taking them in: this runs outside the processing transaction.
    func unprocessed(_ uuids: [UUID]) async throws -> [StoredNotification] {
        try await rows(
            """
            SELECT \(unescaped: Self.columns) FROM \(unescaped: schema).notifications
            WHERE notification_uuid = ANY(\(uuids)) AND processed_at IS NULL
            UNION ALL
            SELECT \(unescaped: Self.inboxColumns) FROM storegate.notification_inbox
            WHERE tenant_id = \(scope.tenantId) AND notification_uuid = ANY(\(uuids))
              AND notification_uuid <> ALL (ARRAY(SELECT notification_uuid FROM \(unescaped: schema).notifications WHERE notification_uuid = ANY(\(uuids))))
            ORDER BY received_at, notification_uuid
            """, prepared: true)
    }

    func lockUnprocessed(_ uuids: [UUID]) async throws -> Set<UUID> {
        guard !uuids.isEmpty else { return [] }
        return Set(
            try await scope.prepared(
                """
                SELECT notification_uuid FROM \(unescaped: schema).notifications
                WHERE notification_uuid = ANY(\(uuids)) AND processed_at IS NULL ORDER BY notification_uuid FOR UPDATE
                """
            ) { try $0.decode(UUID.self) })
    }

    func markProcessed(_ outcomes: [(notificationUUID: UUID, error: String?, originalTransactionId: String?)]) async throws {
        guard !outcomes.isEmpty else { return }
        // An empty error stands for none, and a series not known is flagged apart: arrays of optionals do not bind.
        _ = try await scope.prepared(
            """
            UPDATE \(unescaped: schema).notifications n
            SET processed_at = now(), processing_error = nullif(o.error, ''), original_transaction_id = CASE WHEN o.known THEN o.original END
            FROM unnest(\(outcomes.map(\.notificationUUID))::uuid[], \(outcomes.map { String(($0.error ?? "").prefix(500)) })::text[],
                        \(outcomes.map { $0.originalTransactionId ?? "" })::text[], \(outcomes.map { $0.originalTransactionId != nil })::bool[])
                AS o(uuid, error, original, known)
            WHERE n.notification_uuid = o.uuid
            """
        ) { _ in () }
    }

    /// Those waiting in the inbox included.
    func existing(_ uuids: [UUID]) async throws -> Set<UUID> {
        Set(
            try await scope.column(
                """
                SELECT notification_uuid FROM \(unescaped: schema).notifications WHERE notification_uuid = ANY(\(uuids))
                UNION
                SELECT notification_uuid FROM storegate.notification_inbox WHERE tenant_id = \(scope.tenantId) AND notification_uuid = ANY(\(uuids))
                """, as: UUID.self))
    }
}

extension PostgresTenantUnit {
    var notifications: any NotificationStore { NotificationRepository(scope: scope) }
}
