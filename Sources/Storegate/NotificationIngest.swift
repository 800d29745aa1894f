import AppStoreServer
import Foundation
import Logging
import PostgresNIO
import StoregatePostgres

/// Receives App Store Server Notifications V2 for an app's webhook token: verifies the signed payload
/// (with the process-wide chain cache), then stores it durably in the tenant's schema, keyed by
/// `notificationUUID`, before it is acknowledged. Processing happens afterwards, from the stored rows.
public struct NotificationIngest: Sendable {
    let database: Database
    let repositories: Repositories
    let notifications: NotificationRepository
    let chains: ChainVerifier
    let allowUnsignedEnvironments: Bool
    let jobs: JobQueue
    let processor: NotificationProcessor
    let gateway: AppStoreGateway
    let logger: Logger

    /// What to answer Apple.
    public enum Outcome: Equatable, Sendable {
        /// Stored now: 200.
        case stored(UUID)
        /// Already stored earlier: 200, nothing processed twice.
        case duplicate(UUID)
        /// No app has this token: 404.
        case unknownToken
        /// The body is not `{"signedPayload": …}`: 400.
        case malformedBody
        /// Verification failed: 4xx, or 503 when the failure may pass on retry.
        case rejected(VerificationFailure)
    }

    public func receive(token: String, body: Data) async throws -> Outcome {
        guard token.utf8.count == 43, token.utf8.allSatisfy({ $0.isBase64URL }) else { return .unknownToken }
        guard let signed = (try? JSONDecoder().decode(ResponseBodyV2.self, from: body))?.signedPayload else { return .malformedBody }
        let found = try await database.withConnection { try await repositories.apps.webhook(token: token, on: $0) }
        guard let (webhook, app, schema) = found else { return .unknownToken }
        let verifier = SignedDataVerifier(
            configuration: .init(
                bundleId: app.bundleId, appAppleId: app.appAppleId, environment: webhook.environment, allowUnsignedEnvironments: allowUnsignedEnvironments),
            chains: chains)
        let verified: VerifiedPayload
        switch await verifier.verify(signed, as: .notification) {
        case .invalid(let failure): return .rejected(failure)
        case .valid(let payload): verified = payload
        }
        let stored: StoredNotification
        do {
            stored = try Self.stored(verified, signed: signed, app: app, environment: webhook.environment, source: "webhook")
        } catch let failure as VerificationFailure {
            return .rejected(failure)
        }
        let inserted = try await store(stored, tenantId: app.tenantId, schema: schema)
        return inserted ? .stored(stored.notificationUUID) : .duplicate(stored.notificationUUID)
    }

    static func stored(_ verified: VerifiedPayload, signed: String, app: AppRecord, environment: String, source: String) throws -> StoredNotification {
        let decoded = try verified.decode(ResponseBodyV2DecodedPayload.self)
        guard let uuid = decoded.notificationUUID.flatMap(UUID.init(uuidString:)) else {
            throw VerificationFailure.malformed("the notification has no notificationUUID")
        }
        return StoredNotification(
            notificationUUID: uuid, appId: app.id, environment: environment, notificationType: decoded.notificationType?.rawValue ?? "UNKNOWN",
            subtype: decoded.subtype?.rawValue, signedDate: decoded.signedDate?.date, signedPayload: signed,
            payload: String(decoding: verified.payload, as: UTF8.self), source: source)
    }

    /// Stores the notification and its processing job in one transaction, then applies it. A failure to
    /// apply leaves the job for the worker; the notification is stored either way.
    func store(_ stored: StoredNotification, tenantId: UUID, schema: TenantSchema) async throws -> Bool {
        let inserted = try await database.transaction { conn in
            guard try await notifications.insert(stored, in: schema, on: conn) else { return false }
            try await jobs.enqueue(
                tenantId: tenantId, kind: .processNotification, ref: stored.notificationUUID.uuidString, due: Date() + 30, on: conn)
            return true
        }
        if inserted {
            do {
                try await processor.process(tenantId: tenantId, notificationUUID: stored.notificationUUID)
            } catch {
                logger.warning(
                    "notification stored, processing deferred",
                    metadata: ["notificationUUID": .string(stored.notificationUUID.uuidString), "error": .string("\(error)")])
            }
        }
        return inserted
    }

    public func list(tenant: TenantRecord, appId: UUID?, limit: Int) async throws -> [StoredNotification] {
        try await database.withConnection { try await notifications.list(appId: appId, limit: limit, in: tenant.schema, on: $0) }
    }
}

extension UInt8 {
    var isBase64URL: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || (0x30...0x39).contains(self) || self == 0x2D || self == 0x5F }
}
