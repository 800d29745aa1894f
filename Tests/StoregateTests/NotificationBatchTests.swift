import AppStoreServer
import AppStoreSimulator
import Foundation
import PostgresNIO
import Testing

@testable import Storegate
@testable import StoregatePostgres

/// The job worker applies one tenant's stored notifications in batches: each exactly once, and one that
/// cannot be applied holds up no other.
@Suite struct NotificationBatchTests {
    /// Five notifications claimed together are applied by one transaction (so they share one
    /// `processed_at`): the renewal after the purchase it renews, a forged transaction recorded with its
    /// error, every job completed.
    @Test func aTenantsNotificationsAreAppliedInOneTransaction() async throws {
        try await Self.with(slug: "batch") { sim, capabilities, tenant, post in
            let kim = try await sim.simulator.purchase(AppStoreServerAPIClientTests.subscription("kim"))
            let lee = try await sim.simulator.purchase(AppStoreServerAPIClientTests.subscription("lee"))
            var renewed = kim
            renewed.transactionId = "7000000000000001"
            renewed.expiresDate = Timestamp(Date() + 86_400 * 60)
            renewed.signedDate = Timestamp(Date() + 1)
            var forged = lee
            forged.transactionId = "7000000000000002"
            _ = try await post(.subscribed, try sim.simulator.ca.sign(kim))
            _ = try await post(.didRenew, try sim.simulator.ca.sign(renewed))
            _ = try await post(.subscribed, try sim.simulator.ca.sign(lee))
            _ = try await post(.didRenew, try SimulatorCA().sign(forged))
            _ = try await post(.test, nil)

            #expect(await capabilities.worker.runDue() == 5)
            let rows = try await Self.notifications(capabilities, tenant)
            #expect(rows.count == 5)
            #expect(rows.allSatisfy { $0.processedAt != nil })
            #expect(Set(rows.map(\.processedAt)).count == 1, "applied by one transaction")
            #expect(rows.filter { $0.error != nil }.count == 1)
            #expect(rows.first { $0.error != nil }?.error?.contains("data.signedTransactionInfo") == true)
            #expect(try await Self.jobs(capabilities, tenant) == 0)

            let kims = try await capabilities.subscriptions.status(
                tenant: tenant, customerId: nil, bundleId: SimulatorHarness.bundleId, transactionId: kim.transactionId, refresh: false)
            #expect(kims.first?.latestTransactionId == renewed.transactionId)
            let lees = try await capabilities.subscriptions.status(
                tenant: tenant, customerId: nil, bundleId: SimulatorHarness.bundleId, transactionId: lee.transactionId, refresh: false)
            #expect(lees.first?.latestTransactionId == lee.transactionId, "nothing applied from the forged renewal")
        }
    }

    /// A batch whose transaction fails is applied one notification at a time: the others are applied,
    /// the failing one is retried later with its error, and applied once it can be.
    @Test func aFailingNotificationHoldsUpNoOther() async throws {
        try await Self.with(slug: "fallback") { sim, capabilities, tenant, post in
            let kim = try await sim.simulator.purchase(AppStoreServerAPIClientTests.subscription("kim"))
            let lee = try await sim.simulator.purchase(AppStoreServerAPIClientTests.subscription("lee"))
            _ = try await post(.subscribed, try sim.simulator.ca.sign(kim))
            let token = try await post(.externalPurchaseToken, nil)
            _ = try await post(.subscribed, try sim.simulator.ca.sign(lee))
            // The token's table is away: applying that one notification fails, and with it the batch.
            try await Self.sql(capabilities, tenant, "ALTER TABLE {schema}.external_purchase_tokens RENAME TO tokens_away")

            // Three jobs, and the failing one again if its retry (5 s on) fell due while the worker ran, as
            // it can on a machine the whole suite keeps busy.
            let ran = await capabilities.worker.runDue()
            #expect(ran >= 3, "jobs run: \(ran)")
            var rows = try await Self.notifications(capabilities, tenant)
            #expect(rows.filter { $0.processedAt != nil }.count == 2, "the other two were applied")
            #expect(rows.first { $0.uuid == token }?.processedAt == nil)
            #expect(try await Self.jobs(capabilities, tenant) == 1, "the failing one is kept to retry")

            try await Self.sql(capabilities, tenant, "ALTER TABLE {schema}.tokens_away RENAME TO external_purchase_tokens")
            try await capabilities.postgres.client.withConnection { conn in
                try await conn.run(
                    "UPDATE storegate.jobs SET due_at = now() WHERE tenant_id = \(tenant.id) AND kind = 'process_notification'",
                    logger: capabilities.postgres.logger)
            }
            #expect(await capabilities.worker.runDue() == 1)
            rows = try await Self.notifications(capabilities, tenant)
            #expect(rows.allSatisfy { $0.processedAt != nil && $0.error == nil })
            #expect(try await Self.jobs(capabilities, tenant) == 0)
        }
    }

    /// A batch locks the series it stores before it writes any: a unit holding one of them (another of
    /// the tenant's batches, a customer's sync) makes it wait there, no purchase written, and it applies
    /// once that unit ends. Before, each locked its series' rows in the order it met them, and two
    /// batches storing common series in different orders could each hold a row the other waited for.
    @Test func aBatchLocksTheSeriesItStoresBeforeWritingAny() async throws {
        try await Self.with(slug: "series-locks") { sim, capabilities, tenant, post in
            let kim = try await sim.simulator.purchase(AppStoreServerAPIClientTests.subscription("kim"))
            let lee = try await sim.simulator.purchase(AppStoreServerAPIClientTests.subscription("lee"))
            let uuids = [try await post(.subscribed, try sim.simulator.ca.sign(kim)), try await post(.subscribed, try sim.simulator.ca.sign(lee))]
            let app = try await capabilities.apps.get(tenant: tenant, bundleId: SimulatorHarness.bundleId).app
            let lees = SeriesKey(appId: app.id, environment: .sandbox, originalTransactionId: try #require(lee.originalTransactionId))
            let (held, holding) = AsyncStream<Void>.makeStream()
            let (released, release) = AsyncStream<Void>.makeStream()
            let holder = Task {
                try await capabilities.persistence.inTenant(tenant) { unit in
                    try await unit.transactions.lockSeries([SeriesKey(appId: app.id, environment: .sandbox, originalTransactionId: "1999"), lees])
                    holding.yield()
                    for await _ in released { break }
                }
            }
            for await _ in held { break }

            let applying = Task { try await capabilities.worker.processor.process(tenant: tenant, notificationUUIDs: uuids) }
            let waiting: PostgresQuery = "SELECT pid FROM pg_stat_activity WHERE wait_event = 'advisory' AND datname = current_database()"
            try await eventually("the batch waits for lee's series") { try await Self.pids(capabilities, waiting).count == 1 }
            let pid = try #require(try await Self.pids(capabilities, waiting).first)
            let writes = try await Self.pids(
                capabilities,
                """
                SELECT l.pid FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE l.pid = \(pid) AND l.mode = 'RowExclusiveLock' AND n.nspname = \(tenant.storageName)
                  AND c.relname IN ('customers', 'account_links', 'transactions', 'subscriptions')
                """)
            #expect(writes.isEmpty, "the waiting batch has written no customer, link, transaction or subscription")
            release.yield()
            try await holder.value

            #expect(try await applying.value.isEmpty)
            let rows = try await Self.notifications(capabilities, tenant)
            #expect(rows.count == 2 && rows.allSatisfy { $0.processedAt != nil && $0.error == nil })
            let status = try await capabilities.subscriptions.status(
                tenant: tenant, customerId: nil, bundleId: SimulatorHarness.bundleId, transactionId: lee.transactionId, refresh: false)
            #expect(status.first?.latestTransactionId == lee.transactionId)
        }
    }

    static func pids(_ capabilities: Capabilities, _ query: PostgresQuery) async throws -> [Int32] {
        try await capabilities.postgres.client.withConnection { conn in
            try await conn.all(query, logger: capabilities.postgres.logger) { try $0.decode(Int32.self) }
        }
    }

    typealias Post = @Sendable (NotificationTypeV2, String?) async throws -> UUID

    /// A tenant with the simulator's app, and a way to store a notification as the webhook would (verified,
    /// stored with its job) with no worker running: the test runs the worker itself.
    static func with(slug: String, _ body: @Sendable (SimulatorHarness, Capabilities, Tenant, Post) async throws -> Void) async throws {
        try await SimulatorHarness.with { sim in
            try await TestDatabase.with(trust: (roots: [sim.simulator.ca.root], allowUnsignedEnvironments: false)) { capabilities, _ in
                let made = try await Fixtures.tenant(capabilities, slug: slug, bundleId: SimulatorHarness.bundleId)
                let app = try await capabilities.apps.get(tenant: made.tenant.tenant, bundleId: SimulatorHarness.bundleId)
                let token = try #require(app.notificationURLs.first { $0.environment == .sandbox }?.token)
                let post: Post = { type, signedTransaction in
                    let uuid = UUID()
                    let payload = ResponseBodyV2DecodedPayload(
                        notificationType: type, notificationUUID: uuid.uuidString.lowercased(),
                        data: type == .externalPurchaseToken
                            ? nil
                            : NotificationData(
                                environment: .sandbox, appAppleId: 1_234_567, bundleId: SimulatorHarness.bundleId, bundleVersion: "1",
                                signedTransactionInfo: signedTransaction, status: signedTransaction == nil ? nil : .active),
                        version: "2.0", signedDate: Timestamp(Date()),
                        externalPurchaseToken: type == .externalPurchaseToken
                            ? ExternalPurchaseToken(
                                externalPurchaseId: "SANDBOX" + uuid.uuidString.lowercased(), tokenCreationDate: 1_700_000_000_000, appAppleId: 1_234_567,
                                bundleId: SimulatorHarness.bundleId) : nil)
                    let body = Data(#"{"signedPayload":"\#(try sim.simulator.ca.sign(payload))"}"#.utf8)
                    let outcome = try await capabilities.notifications.receive(token: token, body: body)
                    #expect(outcome == .stored(uuid))
                    return uuid
                }
                try await body(sim, capabilities, made.tenant.tenant, post)
            }
        }
    }

    struct Row: Hashable {
        let uuid: UUID
        let processedAt: Date?
        let error: String?
    }

    static func notifications(_ capabilities: Capabilities, _ tenant: Tenant) async throws -> [Row] {
        let schema = try TenantSchema(validating: tenant.storageName).sql
        return try await capabilities.postgres.client.withConnection { conn in
            try await conn.all(
                "SELECT notification_uuid, processed_at, processing_error FROM \(unescaped: schema).notifications", logger: capabilities.postgres.logger
            ) { row in
                let r = try row.decode((UUID, Date?, String?).self)
                return Row(uuid: r.0, processedAt: r.1, error: r.2)
            }
        }
    }

    static func jobs(_ capabilities: Capabilities, _ tenant: Tenant) async throws -> Int {
        try await capabilities.postgres.client.withConnection { conn in
            try await conn.first(
                "SELECT count(*)::bigint FROM storegate.jobs WHERE tenant_id = \(tenant.id) AND kind NOT IN ('check_renewal', 'data_retention')", as: Int.self,
                logger: capabilities.postgres.logger)
                ?? -1
        }
    }

    /// Runs SQL with `{schema}` standing for the tenant's schema.
    static func sql(_ capabilities: Capabilities, _ tenant: Tenant, _ text: String) async throws {
        let schema = try TenantSchema(validating: tenant.storageName).sql
        try await capabilities.postgres.client.withConnection { conn in
            try await conn.run(PostgresQuery(unsafeSQL: text.replacingOccurrences(of: "{schema}", with: schema)), logger: capabilities.postgres.logger)
        }
    }
}
