import AppStoreServer
import Foundation
import KeyVault
import PostgresNIO
import Storegate
import Synchronization
import Testing

@testable import StoregatePostgres

#if canImport(Glibc)
    import Glibc
#endif

/// A `storegate serve` whose job worker holds a batch of notifications when it is killed, or stopped:
/// its claims come back to another process within seconds (not after a long lease), and each
/// notification is applied exactly once.
@Suite(.serialized, .timeLimit(.minutes(10))) struct CrashRecoveryTests {
    static let count = 8

    @Test func aWorkerKilledMidBatchLeavesItsNotificationsToAnotherProcessWithinSeconds() async throws {
        try await Self.withBlockedBatch(lease: 2) { capabilities, serve, release, schema in
            let first = try serve([])
            defer { first.signal(SIGKILL) }
            let worker = try await Self.claimedByOneWorker(capabilities)

            // While the first worker runs the batch, its leases are renewed: a second process claims none of
            // them, though two leases pass.
            let second = try serve([])
            defer { second.signal(SIGKILL) }
            let started = ContinuousClock.now
            while ContinuousClock.now - started < .seconds(5) {
                #expect(try await Self.claimants(capabilities) == [worker], "the claims stay the first worker's")
                try await Task.sleep(for: .milliseconds(250))
            }

            first.signal(SIGKILL)
            #expect(await first.waitForExit(upTo: .seconds(5)) != nil)
            let killed = ContinuousClock.now
            try await release()
            try await eventually("another process applied every notification", timeout: .seconds(15)) {
                try await Self.unprocessed(capabilities, schema) == 0
            }
            print("CrashRecoveryTests: every notification applied \(ContinuousClock.now - killed) after the kill")
        }
    }

    /// The lease pushed a claimed job's due time on; once it ran out, the job is still taken before those
    /// that became due while it was claimed.
    @Test func aJobWhoseWorkerDiedIsClaimedBeforeTheBacklog() async throws {
        try await TestDatabase.with { capabilities, _ in
            let tenant = try await capabilities.tenants.create(slug: "claim-order", name: "Claim order", actor: Actor("test"))
            let dead = UUID()
            try await capabilities.postgres.client.withConnection { conn in
                try await conn.run(
                    """
                    INSERT INTO storegate.jobs (tenant_id, kind, ref, due_at, claimed_by) VALUES
                        (\(tenant.id), 'process_notification', 'backlog-1', now() - interval '1 minute', NULL),
                        (\(tenant.id), 'process_notification', 'backlog-2', now() - interval '30 seconds', NULL),
                        (\(tenant.id), 'process_notification', 'dead-worker', now() - interval '1 second', \(dead)),
                        (\(tenant.id), 'process_notification', 'leased', now() + interval '10 seconds', \(UUID()))
                    """, logger: capabilities.postgres.logger)
            }
            let worker = UUID()
            let claimed = try await capabilities.persistence.control(.read) { try await $0.jobs.claim(limit: 2, batch: 1, lease: .seconds(10), worker: worker) }
            #expect(Set(claimed.map(\.ref)) == ["dead-worker", "backlog-1"], "not backlog-2, due before it")
        }
    }

    /// With the oldest jobs each another tenant's, a claim takes each of their tenants' further due
    /// notifications too, oldest first, up to a batch: a batch then holds several, not one.
    @Test func aClaimFillsEachTenantsBatchWithItsOtherDueNotifications() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await capabilities.tenants.create(slug: "claim-batch-a", name: "A", actor: Actor("test"))
            let b = try await capabilities.tenants.create(slug: "claim-batch-b", name: "B", actor: Actor("test"))
            try await capabilities.postgres.client.withConnection { conn in
                try await conn.run(
                    """
                    INSERT INTO storegate.jobs (tenant_id, kind, ref, due_at, claimed_by) VALUES
                        (\(a.id), 'process_notification', 'a-1', now() - interval '5 minutes', NULL),
                        (\(b.id), 'process_notification', 'b-1', now() - interval '4 minutes', NULL),
                        (\(a.id), 'process_notification', 'a-2', now() - interval '3 minutes', NULL),
                        (\(a.id), 'deliver_webhooks', 'a-webhooks', now() - interval '150 seconds', NULL),
                        (\(a.id), 'process_notification', 'a-3', now() - interval '2 minutes', NULL),
                        (\(a.id), 'process_notification', 'a-4', now() - interval '1 minute', NULL),
                        (\(a.id), 'process_notification', 'a-later', now() + interval '1 minute', NULL),
                        (\(a.id), 'process_notification', 'a-held', now() + interval '10 seconds', \(UUID()))
                    """, logger: capabilities.postgres.logger)
            }
            let claimed = try await capabilities.persistence.control(.read) {
                try await $0.jobs.claim(limit: 2, batch: 3, lease: .seconds(10), worker: UUID())
            }
            #expect(
                Set(claimed.map(\.ref)) == ["a-1", "a-2", "a-3", "b-1"],
                "the two oldest, and A's next notifications to a batch of 3: not a-4 beyond it, nor A's webhooks, nor what is not due")
        }
    }

    @Test func aGracefulStopHandsItsClaimsBackAtOnce() async throws {
        try await Self.withBlockedBatch(lease: 60) { capabilities, serve, release, schema in
            // The default grace period: the hand-back does not wait for it (a shorter one, past which the
            // pool is cancelled too, raced the hand-back on a busy machine and left the claims to their lease).
            let first = try serve([])
            defer { first.signal(SIGKILL) }
            _ = try await Self.claimedByOneWorker(capabilities)
            first.signal(SIGTERM)
            // The worker stops first: the batch waiting on the lock the test holds is cancelled (its connection
            // closed) and its claims are handed back while the pool still serves.
            try await eventually("the claims are handed back, long before the 60 s lease", timeout: .seconds(20)) {
                try await Self.claimants(capabilities).isEmpty
            }
            #expect(try await Self.jobsLeft(capabilities, dueNow: true) == Self.count, "due at once")
            #expect(await first.waitForExit(upTo: .seconds(10)) != nil)
            try await release()

            let second = try serve([])
            defer { second.signal(SIGKILL) }
            try await eventually("another process applied every notification", timeout: .seconds(30)) {
                try await Self.unprocessed(capabilities, schema) == 0
            }
        }
    }

    // MARK: Helpers

    /// Stores `count` notifications of one tenant, holds their rows locked (so that a worker that claims
    /// them waits inside its batch) until `test` calls `release`; then checks that each notification was
    /// applied exactly once and no job is left.
    static func withBlockedBatch(
        lease: Int,
        _ test:
            @Sendable (Capabilities, _ serve: @Sendable ([String]) throws -> Subprocess, _ release: @Sendable () async throws -> Void, _ schema: String)
            async throws -> Void
    ) async throws {
        let key = MasterKey.generate()
        try await TestDatabase.with(vault: TestDatabase.makeVault([key])) { capabilities, databaseURL in
            let made = try await Fixtures.tenant(capabilities, slug: "crash", bundleId: "com.example.crash")
            let tenant = made.tenant.tenant
            let schema = try TenantSchema(validating: tenant.storageName).sql
            try await capabilities.persistence.inTenant(tenant, .read) { unit in
                for _ in 0..<count { _ = try await unit.notifications.insert(Self.testNotification(appId: made.appId), processingDue: Date()) }
            }
            let env = [
                "STOREGATE_DATABASE_URL": databaseURL, "STOREGATE_MASTER_KEY": key, "STOREGATE_LOG_LEVEL": "error",
                "STOREGATE_JOB_LEASE_SECONDS": String(lease), "PATH": "/usr/bin:/bin",
            ]
            let serve = { @Sendable (arguments: [String]) throws -> Subprocess in
                try Subprocess(CLITests.binary, ["serve", "--port", String(try FreePort.find())] + arguments, environment: env)
            }
            let logger = capabilities.postgres.logger
            try await capabilities.postgres.client.withConnection { lock in
                try await lock.run("BEGIN", logger: logger)
                // The pool ends a transaction left idle after its statement timeout; this one is held on purpose.
                try await lock.run("SET LOCAL idle_in_transaction_session_timeout = 0", logger: logger)
                try await lock.run("SELECT 1 FROM \(unescaped: schema).notifications FOR UPDATE", logger: logger)
                let released = Mutex(false)
                let release = { @Sendable in
                    guard !released.withLock({ $0 }) else { return }
                    released.withLock { $0 = true }
                    try await lock.run("COMMIT", logger: logger)
                }
                do {
                    try await test(capabilities, serve, release, schema)
                    try await release()
                } catch {
                    if !released.withLock({ $0 }) { try? await lock.run("ROLLBACK", logger: logger) }
                    throw error
                }
            }
            let received = try await capabilities.events.list(tenant: tenant, after: 0, types: [.notificationReceived], limit: 100).events
            #expect(received.count == count, "each notification applied exactly once")
            #expect(Set(received.compactMap(\.signedPayload)).count == count)
            #expect(try await Self.jobsLeft(capabilities) == 0)
        }
    }

    /// A `TEST` notification: applied, it changes nothing but its own state and the event it makes.
    static func testNotification(appId: UUID) -> StoredNotification {
        let uuid = UUID()
        let payload = #"{"notificationType":"TEST","notificationUUID":"\#(uuid.uuidString.lowercased())","version":"2.0","signedDate":1764000000000}"#
        let signed = [#"{"alg":"ES256"}"#, payload].map { Base64URL.encode(Data($0.utf8)) }.joined(separator: ".") + ".c2ln"
        return StoredNotification(
            notificationUUID: uuid, appId: appId, environment: .sandbox, notificationType: .test, subtype: nil, signedDate: Date(), signedPayload: signed,
            source: .webhook)
    }

    /// Waits until every notification job is claimed, by one worker, and returns that worker.
    static func claimedByOneWorker(_ capabilities: Capabilities) async throws -> UUID {
        try await eventually("one worker claimed the batch", timeout: .seconds(20)) {
            guard try await claimants(capabilities).count == 1 else { return false }
            return try await jobsLeft(capabilities, claimedOnly: true) == count
        }
        return try #require(try await claimants(capabilities).first)
    }

    /// The workers holding notification jobs (a recurring job such as data retention may be any worker's).
    static func claimants(_ capabilities: Capabilities) async throws -> Set<UUID> {
        try await capabilities.postgres.client.withConnection { conn in
            Set(
                try await conn.column(
                    "SELECT DISTINCT claimed_by FROM storegate.jobs WHERE claimed_by IS NOT NULL AND kind = 'process_notification'", as: UUID.self,
                    logger: capabilities.postgres.logger))
        }
    }

    /// The jobs left, but for the recurring ones of reconciliation (a sweep stays scheduled).
    static func jobsLeft(_ capabilities: Capabilities, claimedOnly: Bool = false, dueNow: Bool = false) async throws -> Int {
        try await capabilities.postgres.client.withConnection { conn in
            try await conn.first(
                """
                SELECT count(*)::bigint FROM storegate.jobs
                WHERE (NOT \(claimedOnly) OR claimed_by IS NOT NULL) AND (NOT \(dueNow) OR due_at <= now()) AND kind NOT IN ('check_renewal', 'sweep_notifications', 'data_retention')
                """, as: Int.self,
                logger: capabilities.postgres.logger) ?? -1
        }
    }

    static func unprocessed(_ capabilities: Capabilities, _ schema: String) async throws -> Int {
        try await capabilities.postgres.client.withConnection { conn in
            try await conn.first(
                "SELECT count(*)::bigint FROM \(unescaped: schema).notifications WHERE processed_at IS NULL", as: Int.self, logger: capabilities.postgres.logger
            )
                ?? -1
        }
    }
}
