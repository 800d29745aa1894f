import AppStoreServer
import AppStoreSimulator
import Foundation
import PostgresNIO
import Testing

@testable import Storegate
@testable import StoregatePostgres

/// Notifications from Apple's webhook are acknowledged into the inbox, one table for every tenant, and
/// taken into their tenant's data by the job that applies them: each applied exactly once, whether
/// Apple delivers it again while it waits, after it was applied, or while it is being applied.
@Suite struct NotificationInboxTests {
    @Test func aNotificationWaitsInTheInboxUntilItsJobTakesItIn() async throws {
        try await Self.with(slug: "inbox") { capabilities, tenant, deliver in
            let (uuid, body) = try deliver()
            #expect(try await capabilities.notifications.receive(token: body.token, body: body.data) == .stored(uuid))
            #expect(try await Self.count(capabilities, "SELECT count(*)::bigint FROM storegate.notification_inbox WHERE tenant_id = \(tenant.id)") == 1)
            #expect(try await Self.stored(capabilities, tenant) == 0, "not in the tenant's data yet")
            #expect(try await capabilities.notifications.receive(token: body.token, body: body.data) == .duplicate(uuid), "known while it waits")

            #expect(await capabilities.worker.runDue() == 1)
            #expect(try await Self.count(capabilities, "SELECT count(*)::bigint FROM storegate.notification_inbox") == 0)
            #expect(try await Self.stored(capabilities, tenant, processed: true) == 1)
            #expect(try await Self.count(capabilities, "SELECT count(*)::bigint FROM storegate.jobs WHERE kind = 'process_notification'") == 0)

            // Apple delivers it again after it was applied: acknowledged, then dropped by its job.
            #expect(try await capabilities.notifications.receive(token: body.token, body: body.data) == .stored(uuid))
            #expect(await capabilities.worker.runDue() == 1)
            #expect(try await Self.count(capabilities, "SELECT count(*)::bigint FROM storegate.notification_inbox") == 0)
            #expect(try await Self.count(capabilities, "SELECT count(*)::bigint FROM storegate.jobs WHERE kind = 'process_notification'") == 0)
            #expect(try await Self.applied(capabilities, tenant) == [uuid], "applied once")
        }
    }

    /// Notifications arriving together are acknowledged together (one statement and one commit for the
    /// group): each is told whether it was new, one delivered twice at once is new once, and each has
    /// one job.
    @Test func notificationsArrivingTogetherAreEachStoredOnceWithOneJob() async throws {
        try await Self.with(slug: "inbox-group") { capabilities, tenant, deliver in
            let deliveries = try (0..<24).map { _ in try deliver() }
            // Each delivered twice, all at once.
            let outcomes = try await withThrowingTaskGroup(of: NotificationIngest.Outcome.self) { group in
                for (_, body) in deliveries + deliveries {
                    group.addTask { try await capabilities.notifications.receive(token: body.token, body: body.data) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for (uuid, _) in deliveries {
                let said = outcomes.filter { $0 == .stored(uuid) || $0 == .duplicate(uuid) }
                #expect(said.count == 2 && said.contains(.stored(uuid)) && said.contains(.duplicate(uuid)), "\(uuid): \(said)")
            }
            #expect(try await Self.count(capabilities, "SELECT count(*)::bigint FROM storegate.notification_inbox WHERE tenant_id = \(tenant.id)") == 24)
            let jobs: PostgresQuery = "SELECT count(*)::bigint FROM storegate.jobs WHERE tenant_id = \(tenant.id) AND kind = 'process_notification'"
            #expect(try await Self.count(capabilities, jobs) == 24)
            while await capabilities.worker.runDue() > 0 {}
            #expect(Set(try await Self.applied(capabilities, tenant)) == Set(deliveries.map(\.0)), "each applied")
            #expect(try await Self.applied(capabilities, tenant).count == 24, "once")
        }
    }

    /// `notifications.list`, `notifications.testStatus`'s lookup and the export see a notification that
    /// waits in the inbox, without taking it in; deleting the tenant empties its part of the inbox.
    @Test func readsSeeTheInboxAndDeletingTheTenantEmptiesIt() async throws {
        try await Self.with(slug: "inbox-reads") { capabilities, tenant, deliver in
            let (first, body) = try deliver()
            _ = try await capabilities.notifications.receive(token: body.token, body: body.data)
            let listed = try await capabilities.notifications.list(tenant: tenant, appId: nil, limit: 10)
            #expect(listed.map(\.notificationUUID) == [first])
            #expect(listed.first?.processedAt == nil)
            let known = try await capabilities.persistence.inTenant(tenant, .read) { try await $0.notifications.existing([first, UUID()]) }
            #expect(known == [first])
            let export = try await capabilities.persistence.inTenant(tenant, .read) { try await $0.exportTables() }
            #expect(try #require(export.first { $0.name == "notification_inbox" }?.rows).contains(first.uuidString.lowercased()))
            #expect(try await Self.stored(capabilities, tenant) == 0, "reads take nothing in")

            #expect(await capabilities.worker.runDue() == 1)
            let applied = try await capabilities.notifications.list(tenant: tenant, appId: nil, limit: 10)
            #expect(applied.map(\.notificationUUID) == [first] && applied.first?.processedAt != nil, "listed once, applied")

            _ = try await capabilities.notifications.receive(token: body.token, body: try deliver().1.data)
            #expect(try await Self.count(capabilities, "SELECT count(*)::bigint FROM storegate.notification_inbox") == 1)
            try await capabilities.tenants.delete(slug: tenant.slug, confirm: tenant.slug, actor: Actor("test"))
            #expect(try await Self.count(capabilities, "SELECT count(*)::bigint FROM storegate.notification_inbox") == 0)
        }
    }

    /// The race a repeated delivery can run with its own processing: the first is in the tenant's data
    /// with its job still to run (stored from Apple's history, or deferred by an earlier batch), and the
    /// repeat reaches the inbox (its job moved earlier, and locked) after the processing unit took in what
    /// it saw and before it completed the job. The unit waits for the repeat, completes the job, and takes
    /// the repeat in with it: nothing is left in the inbox without a job.
    @Test func aDeliveryRepeatedWhileItIsAppliedIsNotLeftBehind() async throws {
        try await Self.with(slug: "inbox-race") { capabilities, tenant, deliver in
            let (uuid, body) = try deliver()
            _ = try await capabilities.notifications.receive(token: body.token, body: body.data)
            let stored = try #require(try await capabilities.notifications.list(tenant: tenant, appId: nil, limit: 1).first)
            try await capabilities.postgres.client.withConnection { conn in
                try await conn.run("DELETE FROM storegate.notification_inbox", logger: capabilities.postgres.logger)
            }
            _ = try await capabilities.persistence.inTenant(tenant, .read) { try await $0.notifications.insert(stored, processingDue: Date()) }

            let logger = capabilities.postgres.logger
            try await capabilities.postgres.client.withConnection { repeatDelivery in
                try await repeatDelivery.run("BEGIN", logger: logger)
                #expect(try await NotificationInboxRepository(conn: repeatDelivery, logger: logger).receive(stored, tenantId: tenant.id, processingDue: Date()))
                let applying = Task { try await capabilities.worker.processor.process(tenant: tenant, notificationUUIDs: [uuid]) }
                try await eventually("the processing unit waits for the repeat's lock on the job") {
                    try await Self.count(
                        capabilities, "SELECT count(*)::bigint FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()") == 1
                }
                try await repeatDelivery.run("COMMIT", logger: logger)
                #expect(try await applying.value.isEmpty)
            }
            #expect(try await Self.count(capabilities, "SELECT count(*)::bigint FROM storegate.notification_inbox") == 0, "the repeat was taken in and dropped")
            #expect(try await Self.count(capabilities, "SELECT count(*)::bigint FROM storegate.jobs WHERE kind = 'process_notification'") == 0)
            #expect(try await Self.applied(capabilities, tenant) == [uuid])
        }
    }

    // MARK: Helpers

    struct Delivery {
        let token: String
        let data: Data
    }

    /// A tenant with the simulator's app, no worker running, and a way to make a signed `TEST` notification
    /// as Apple delivers it to the app's webhook.
    static func with(
        slug: String, _ body: @Sendable (Capabilities, Tenant, _ deliver: @Sendable () throws -> (UUID, Delivery)) async throws -> Void
    ) async throws {
        try await SimulatorHarness.with { sim in
            try await TestDatabase.with(trust: (roots: [sim.simulator.ca.root], allowUnsignedEnvironments: false)) { capabilities, _ in
                let made = try await Fixtures.tenant(capabilities, slug: slug, bundleId: SimulatorHarness.bundleId)
                let app = try await capabilities.apps.get(tenant: made.tenant.tenant, bundleId: SimulatorHarness.bundleId)
                let token = try #require(app.notificationURLs.first { $0.environment == .sandbox }?.token)
                let deliver = { @Sendable () throws -> (UUID, Delivery) in
                    let uuid = UUID()
                    let payload = ResponseBodyV2DecodedPayload(
                        notificationType: .test, notificationUUID: uuid.uuidString.lowercased(),
                        data: NotificationData(environment: .sandbox, appAppleId: 1_234_567, bundleId: SimulatorHarness.bundleId, bundleVersion: "1"),
                        version: "2.0", signedDate: Timestamp(Date()))
                    return (uuid, Delivery(token: token, data: Data(#"{"signedPayload":"\#(try sim.simulator.ca.sign(payload))"}"#.utf8)))
                }
                try await body(capabilities, made.tenant.tenant, deliver)
            }
        }
    }

    /// A `SELECT count(*)`.
    static func count(_ capabilities: Capabilities, _ query: PostgresQuery) async throws -> Int {
        try await capabilities.postgres.client.withConnection { conn in try await conn.first(query, as: Int.self, logger: capabilities.postgres.logger) ?? -1 }
    }

    /// The tenant's notifications, all or only those processed.
    static func stored(_ capabilities: Capabilities, _ tenant: Tenant, processed: Bool = false) async throws -> Int {
        let schema = try TenantSchema(validating: tenant.storageName).sql
        return try await count(
            capabilities, "SELECT count(*)::bigint FROM \(unescaped: schema).notifications WHERE NOT \(processed) OR processed_at IS NOT NULL")
    }

    /// The notifications applied, by the `notification.received` event each makes once.
    static func applied(_ capabilities: Capabilities, _ tenant: Tenant) async throws -> [UUID] {
        try await capabilities.events.list(tenant: tenant, after: 0, types: [.notificationReceived], limit: 100).events.compactMap {
            $0.signedPayload.flatMap(NotificationIngest.unverifiedNotificationUUID)
        }
    }
}
