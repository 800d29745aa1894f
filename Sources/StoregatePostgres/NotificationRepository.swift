import Foundation
import Logging
import PostgresNIO

/// A notification as received, before processing.
public struct StoredNotification: Sendable, Equatable {
    public let notificationUUID: UUID
    public let appId: UUID
    public let environment: String
    public let notificationType: String
    public let subtype: String?
    public let signedDate: Date?
    public let signedPayload: String
    /// The verified payload's JSON.
    public let payload: String
    public let source: String
    public let receivedAt: Date?

    public init(
        notificationUUID: UUID, appId: UUID, environment: String, notificationType: String, subtype: String?, signedDate: Date?, signedPayload: String,
        payload: String, source: String, receivedAt: Date? = nil
    ) {
        self.notificationUUID = notificationUUID
        self.appId = appId
        self.environment = environment
        self.notificationType = notificationType
        self.subtype = subtype
        self.signedDate = signedDate
        self.signedPayload = signedPayload
        self.payload = payload
        self.source = source
        self.receivedAt = receivedAt
    }
}

/// Notifications in a tenant's schema, keyed by `notificationUUID`.
public struct NotificationRepository: Sendable {
    let logger: Logger
    public init(logger: Logger) { self.logger = logger }

    /// Stores a notification unless one with its UUID is there; returns whether it was new.
    public func insert(_ n: StoredNotification, in schema: TenantSchema, on conn: PostgresConnection) async throws -> Bool {
        let inserted = try await conn.first(
            """
            INSERT INTO \(unescaped: schema.sql).notifications
                (notification_uuid, app_id, environment, notification_type, subtype, signed_date, signed_payload, payload, source)
            VALUES (\(n.notificationUUID), \(n.appId), \(n.environment), \(n.notificationType), \(n.subtype), \(n.signedDate), \(n.signedPayload),
                    \(n.payload)::jsonb, \(n.source))
            ON CONFLICT (notification_uuid) DO NOTHING
            RETURNING 1
            """, as: Int.self, logger: logger)
        return inserted != nil
    }

    public func list(appId: UUID?, limit: Int, in schema: TenantSchema, on conn: PostgresConnection) async throws -> [StoredNotification] {
        var out: [StoredNotification] = []
        let rows = try await conn.query(
            """
            SELECT notification_uuid, app_id, environment, notification_type, subtype, signed_date, signed_payload, payload::text, source, received_at
            FROM \(unescaped: schema.sql).notifications
            WHERE (\(appId)::uuid IS NULL OR app_id = \(appId)) ORDER BY received_at DESC, notification_uuid LIMIT \(limit)
            """, logger: logger)
        for try await r in rows.decode((UUID, UUID, String, String, String?, Date?, String, String, String, Date).self) {
            out.append(
                StoredNotification(
                    notificationUUID: r.0, appId: r.1, environment: r.2, notificationType: r.3, subtype: r.4, signedDate: r.5, signedPayload: r.6, payload: r.7,
                    source: r.8, receivedAt: r.9))
        }
        return out
    }
}

extension AppRepository {
    /// The webhook with this token, with its app; nil when unknown.
    public func webhook(token: String, on conn: PostgresConnection) async throws -> (webhook: WebhookRecord, app: AppRecord, schema: TenantSchema)? {
        let rows = try await conn.query(
            """
            SELECT w.token, w.environment, a.id, a.tenant_id, a.bundle_id, a.app_apple_id, a.environments, a.created_at, t.schema_name
            FROM storegate.webhooks w JOIN storegate.apps a ON a.id = w.app_id JOIN storegate.tenants t ON t.id = a.tenant_id
            WHERE w.token = \(token)
            """, logger: logger)
        for try await r in rows.decode((String, String, UUID, UUID, String, Int64?, [String], Date, String).self) {
            let app = AppRecord(id: r.2, tenantId: r.3, bundleId: r.4, appAppleId: r.5, environments: r.6, createdAt: r.7)
            return (WebhookRecord(token: r.0, tenantId: r.3, appId: r.2, environment: r.1), app, try TenantSchema(validating: r.8))
        }
        return nil
    }
}

extension NotificationRepository {
    /// One stored notification and when it was processed; locked for the caller's transaction when `lock` is set.
    public func find(_ uuid: UUID, lock: Bool = false, in schema: TenantSchema, on conn: PostgresConnection) async throws -> (StoredNotification, processedAt: Date?)? {
        let rows = try await conn.query(
            """
            SELECT notification_uuid, app_id, environment, notification_type, subtype, signed_date, signed_payload, payload::text, source, received_at, processed_at
            FROM \(unescaped: schema.sql).notifications WHERE notification_uuid = \(uuid) \(unescaped: lock ? "FOR UPDATE" : "")
            """, logger: logger)
        for try await r in rows.decode((UUID, UUID, String, String, String?, Date?, String, String, String, Date, Date?).self) {
            let n = StoredNotification(
                notificationUUID: r.0, appId: r.1, environment: r.2, notificationType: r.3, subtype: r.4, signedDate: r.5, signedPayload: r.6, payload: r.7,
                source: r.8, receivedAt: r.9)
            return (n, r.10)
        }
        return nil
    }

    /// Marks a notification processed, with the reason when it could not be applied.
    public func markProcessed(_ uuid: UUID, error: String?, in schema: TenantSchema, on conn: PostgresConnection) async throws {
        try await conn.run(
            """
            UPDATE \(unescaped: schema.sql).notifications SET processed_at = now(), processing_error = \(error.map { String($0.prefix(500)) })
            WHERE notification_uuid = \(uuid)
            """, logger: logger)
    }

    /// Which of these UUIDs are stored already.
    public func existing(_ uuids: [UUID], in schema: TenantSchema, on conn: PostgresConnection) async throws -> Set<UUID> {
        var out = Set<UUID>()
        let rows = try await conn.query(
            "SELECT notification_uuid FROM \(unescaped: schema.sql).notifications WHERE notification_uuid = ANY(\(uuids))", logger: logger)
        for try await id in rows.decode(UUID.self) { out.insert(id) }
        return out
    }
}
