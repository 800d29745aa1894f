import AppStoreServer
import Foundation
import Logging

/// Receives App Store Server Notifications V2 for an app's webhook token: verifies the signed payload
/// (with the process-wide chain cache), then stores it durably in the inbox with its processing job,
/// keyed by tenant and `notificationUUID`, before it is acknowledged. Processing happens afterwards: it
/// takes the notification into the tenant's data and applies it. The inbox is one table for every tenant,
/// so the acknowledgement is one statement whose text never changes: prepared once on each connection, it
/// costs the same whatever the number of tenants (a tenant's own table is a new text on each backend that
/// meets the tenant, parsed, planned and its catalog loaded there). A delivery Apple repeats is known as
/// a duplicate while the first waits in the inbox; after, processing finds it applied and drops it.
public struct NotificationIngest: Sendable {
    let persistence: any Persistence
    let verification: Verification
    let jobs: JobSignal
    let gateway: AppStoreGateway
    let logger: Logger
    let notificationURLs: NotificationURLTokens
    let directory: AppDirectory
    /// The acknowledgements' writes, grouped (`inbox(_:)`).
    let inbox: GroupCommit<Bool, (StoredNotification, tenantId: UUID), Bool>

    /// Notifications arriving together are put in the inbox together: one statement and one commit for
    /// all of them (with fsync on, the commit is most of an acknowledgement's cost), each told whether it
    /// was new. A notification delivered twice in one group is new once.
    static func inbox(_ persistence: any Persistence) -> GroupCommit<Bool, (StoredNotification, tenantId: UUID), Bool> {
        GroupCommit(outcomes: { _, items in
            var seen: Set<String> = []
            let first = items.map { seen.insert("\($0.tenantId) \($0.0.notificationUUID)").inserted }
            let distinct = zip(items, first).filter(\.1).map(\.0)
            let received = try await persistence.control(.read) { try await $0.inbox.receive(distinct, processingDue: Date()) }
            var new = received.makeIterator()
            return first.map { $0 ? (new.next() ?? false) : false }
        })
    }

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
        guard
            let target = try await notificationURLs.value(
                for: token, loadIfFound: { try await persistence.control(.read) { try await $0.notificationURL(token: token) }.map(NotificationURLTarget.init) }
            )
        else { return .unknownToken }
        let (notificationURL, app, tenant) = (target.notificationURL, target.app, target.tenant)
        let stored: StoredNotification
        switch await verify(signed, app: app, environment: notificationURL.environment, source: .webhook) {
        case .failure(let failure): return .rejected(failure)
        case .success(let notification): stored = notification
        }
        let received = try await inbox.record((stored, tenant.id), key: true)
        if received { jobs.poke() }
        return received ? .stored(stored.notificationUUID) : .duplicate(stored.notificationUUID)
    }

    /// Verifies a signed notification as the app's in `environment`, ready to store.
    func verify(
        _ signed: String, app: App, environment: AppStoreEnvironment, source: StoredNotification.Source
    ) async -> Result<StoredNotification, VerificationFailure> {
        switch await verification.verifier(app: app, environment: environment).verify(signed, as: .notification) {
        case .invalid(let failure): return .failure(failure)
        case .valid(let verified):
            guard let decoded = try? verified.decode(ResponseBodyV2DecodedPayload.self) else {
                return .failure(.malformed("the notification payload is not valid"))
            }
            guard let uuid = decoded.notificationUUID.flatMap(UUID.init(uuidString:)) else {
                return .failure(.malformed("the notification has no notificationUUID"))
            }
            return .success(
                StoredNotification(
                    notificationUUID: uuid, appId: app.id, environment: environment,
                    notificationType: decoded.notificationType ?? NotificationTypeV2(rawValue: "UNKNOWN"),
                    subtype: decoded.subtype, signedDate: decoded.signedDate?.date, signedPayload: signed, source: source))
        }
    }

    /// Stores the notification in the tenant's data with its processing job (due now), in one statement,
    /// and wakes the job worker; returns whether it was new. For notifications recovered from Apple's
    /// history, which are counted as new or known exactly.
    func store(_ stored: StoredNotification, tenant: Tenant) async throws -> Bool {
        let inserted = try await persistence.inTenant(tenant, .read) { try await $0.notifications.insert(stored, processingDue: Date()) }
        if inserted { jobs.poke() }
        return inserted
    }

    public func list(tenant: Tenant, appId: UUID?, limit: Int) async throws -> [StoredNotification] {
        try await persistence.inTenant(tenant, .read) { try await $0.notifications.list(appId: appId, limit: limit) }
    }

    /// `notifications.list`: what Apple sent the tenant's apps (or one app), newest first, each named by bundle ID.
    public static let receivedPage = PageSize(standard: 50, maximum: 200)

    /// `notifications.list`: what Apple sent the tenant's apps (or one app), newest first, each named by bundle ID.
    public func received(tenant: Tenant, bundleId: String?, limit: Int?) async throws -> [ReceivedNotification] {
        let limit = try Self.receivedPage.limit(limit)
        let appId = try await persistence.appId(tenant, bundleId: bundleId)
        let stored = try await list(tenant: tenant, appId: appId, limit: limit)
        let bundles = try await directory.bundleIds(tenant: tenant, covering: stored.map(\.appId))
        return stored.map { ReceivedNotification($0, bundleId: bundles[$0.appId] ?? "") }
    }
}

/// What a notification URL's token names. Each notification names its token, and what a token names changes
/// rarely: tokens are remembered until their tenant changes (see `CacheCoherence`). Unknown tokens are
/// not remembered.
typealias NotificationURLTokens = ExpiringCache<String, NotificationURLTarget>

struct NotificationURLTarget: Sendable {
    let notificationURL: NotificationURL
    let app: App
    let tenant: Tenant
}

extension UInt8 {
    var isBase64URL: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) || (0x30...0x39).contains(self) || self == 0x2D || self == 0x5F }
}
