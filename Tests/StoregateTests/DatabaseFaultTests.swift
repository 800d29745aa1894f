import AppStoreServer
import Foundation
import JSONRPC
import Logging
import NIOHTTP1
import PostgresNIO
import Storegate
import StoregatePostgres
import StoregateServer
import Synchronization
import Testing

/// PostgreSQL crashing, freezing and coming back, with Storegate running: every call ends within its
/// deadline with a retryable answer, readiness says so within a second, and service resumes by itself.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DatabaseFaultTests {
    static let deadlines = DatabaseDeadlines(checkout: .seconds(1), unit: .seconds(2), readiness: .milliseconds(800))
    static let token = String(repeating: "A", count: 43)

    @Test func aCrashedDatabaseGetsRetryableAnswersAndServiceResumesWhenItIsBack() async throws {
        try await OwnedPostgres.with { cluster in
            let apiKey = try await Self.tenant(cluster, slug: "faults")
            try await cluster.withCapabilities(deadlines: Self.deadlines) { capabilities in
                try await TestServer.with(capabilities) { server in
                    // Readiness answers within 800 ms; the whole suite on two cores can make a first
                    // answer (a new connection to a new cluster) miss that, so it is asked until ready.
                    try await eventually("ready at the start") { try await server.request("/readyz", method: .GET).status == 200 }
                    // The first call may need a new connection too, within the same 1 s (see below).
                    try await eventually("apps.list answered at the start", timeout: .seconds(20)) {
                        try await server.call("apps.list", apiKey: apiKey)["result"] != nil
                    }

                    try await cluster.crash()
                    try await Self.expectUnavailable(server, apiKey: apiKey, within: Self.deadlines.checkout)

                    try await cluster.start()
                    try await eventually("the server answers again after PostgreSQL restarted", timeout: .seconds(20)) {
                        try await server.request("/readyz", method: .GET).status == 200
                    }
                    // A call is given 1 s for a connection and 2 s in all, which the server's first new
                    // connection after the restart can miss beside the whole suite (seen under stress-ng):
                    // what is claimed is that calls succeed again with nothing restarted, not the first one.
                    try await eventually("apps.list answered again", timeout: .seconds(20)) {
                        try await server.call("apps.list", apiKey: apiKey)["result"] != nil
                    }
                }
            }
        }
    }

    /// The job worker looks at the queue every 100 ms while long jobs run: an outage is warned of once,
    /// whatever the number of claims that fail, and its end is told once.
    @Test func theJobQueueOutageIsWarnedOfOnceAndItsEndOnce() async throws {
        try await OwnedPostgres.with { cluster in
            let records = LogRecords()
            let logger = Logger(label: "test", factory: { _ in records })
            try await cluster.withCapabilities(deadlines: Self.deadlines, logger: logger) { capabilities in
                _ = await capabilities.worker.runDue()
                try await cluster.crash()
                for _ in 0..<3 { _ = await capabilities.worker.runDue() }
                #expect(records.count("job queue unavailable", at: .warning) == 1)
                #expect(records.count("job queue unavailable", at: .debug) == 2)
                try await cluster.start()
                try await eventually("the queue is reached again", timeout: .seconds(20)) {
                    _ = await capabilities.worker.runDue()
                    return records.count("job queue reachable again", at: .notice) == 1
                }
                _ = await capabilities.worker.runDue()
                #expect(records.count("job queue reachable again", at: .notice) == 1)
                #expect(records.count("job queue unavailable", at: .warning) == 1)
            }
        }
    }

    @Test func aSilentDatabaseIsCutOffAtTheDeadline() async throws {
        try await OwnedPostgres.with { cluster in
            let apiKey = try await Self.tenant(cluster, slug: "silent")
            try await cluster.withCapabilities(deadlines: Self.deadlines) { capabilities in
                try await TestServer.with(capabilities) { server in
                    #expect(try await server.call("apps.list", apiKey: apiKey)["result"] != nil)
                    try cluster.freeze()
                    defer { try? cluster.thaw() }
                    // The pool's open connections now send statements nobody answers, and new ones never
                    // finish their handshake: the unit deadline (2 s) and the checkout deadline (1 s) end them.
                    try await Self.expectUnavailable(server, apiKey: apiKey, within: Self.deadlines.unit)

                    try cluster.thaw()
                    try await eventually("the server answers again after PostgreSQL resumed", timeout: .seconds(20)) {
                        try await server.request("/readyz", method: .GET).status == 200
                    }
                    #expect(try await server.call("apps.list", apiKey: apiKey)["result"] != nil)
                }
            }
        }
    }

    /// A checkout deadline that passes as the lease arrives: the connection is released unused, the call
    /// answers `unavailable` (never a stray cancellation), and no unit is left waiting (this hung before).
    @Test func checkoutDeadlinesRacingTheLeaseNeverStrandAUnit() async throws {
        try await TestDatabase.with { _, url in
            let logger = TestLog.logger("test")
            let client = DatabaseClient(configuration: try DatabaseConfiguration(url: url, maximumConnections: 2), backgroundLogger: logger)
            await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                defer { group.cancelAll() }
                var outcomes = (ok: 0, unavailable: 0)
                for round in 0..<12 {
                    let checkout = Duration.microseconds(Int64(round + 1) * 250)
                    let postgres = PostgresPersistence(
                        client: client, logger: logger, deadlines: DatabaseDeadlines(checkout: checkout, unit: .seconds(5), readiness: .seconds(1)))
                    let results = await withTaskGroup(of: Result<Int, any Error>.self) { calls in
                        for index in 0..<25 {
                            calls.addTask {
                                do {
                                    return .success(
                                        try await postgres.control(index.isMultiple(of: 2) ? .write : .read) { try await $0.tenants.list().count })
                                } catch {
                                    return .failure(error)
                                }
                            }
                        }
                        return await calls.reduce(into: []) { $0.append($1) }
                    }
                    for result in results {
                        switch result {
                        case .success: outcomes.ok += 1
                        case .failure(StoregateError.unavailable): outcomes.unavailable += 1
                        case .failure(let error): Issue.record("a unit ended with \(error)")
                        }
                    }
                }
                #expect(outcomes.ok + outcomes.unavailable == 300)
                #expect(outcomes.unavailable > 0, "the deadlines were tight enough to race the lease")
            }
        }
    }

    /// A unit cancelled between two statements (as a shutdown past its grace period does) ends at its next
    /// statement, which it does not send: PostgresNIO never answers a statement sent on a connection that
    /// was closed, and closing the connection at once left the job worker waiting forever.
    @Test func aUnitCancelledBetweenStatementsEndsAtItsNextStatement() async throws {
        try await TestDatabase.with { capabilities, _ in
            for access in [UnitAccess.write, .read] {
                let ended = Mutex<(any Error)??>(.none)
                let firstDone = Mutex(false)
                let unit = Task {
                    do {
                        _ = try await capabilities.persistence.control(access) { unit in
                            _ = try await unit.tenants.list()
                            firstDone.withLock { $0 = true }
                            await Self.pauseIgnoringCancellation(until: { Task.isCancelled })
                            return try await unit.tenants.list().count
                        }
                        ended.withLock { $0 = .some(nil) }
                    } catch {
                        ended.withLock { $0 = .some(error) }
                    }
                }
                try await eventually("the \(access) unit's first statement") { firstDone.withLock { $0 } }
                unit.cancel()
                try await eventually("the cancelled \(access) unit ended", timeout: .seconds(5)) { ended.withLock { $0 != nil } }
                let error = ended.withLock { $0 } ?? nil
                #expect(error is CancellationError, "the second statement was refused: \(String(describing: error))")
                // The pool still serves: the closed connection was replaced.
                #expect(try await capabilities.persistence.control(.read) { try await $0.tenants.list() }.isEmpty)
            }
        }
    }

    /// A unit cancelled while its statement waits closes its connection, and the pool may lease that
    /// connection out again before it hears that it closed. The next unit is not failed for it: nothing
    /// was sent on it, so another is leased. (Seen as a retention answer cut at its deadline whose record,
    /// written at once, failed as "the database closed the connection".)
    @Test func theUnitAfterACancelledOneIsNotFailedByItsClosedConnection() async throws {
        try await TestDatabase.with { capabilities, _ in
            let logger = capabilities.postgres.logger
            try await capabilities.postgres.client.withConnection { lock in
                try await lock.run("BEGIN", logger: logger)
                try await lock.run("LOCK TABLE storegate.schema_migrations IN ACCESS EXCLUSIVE MODE", logger: logger)
                for round in 0..<10 {
                    let blocked = Task { try await capabilities.postgres.isCurrent() }
                    // Each cancelled unit's backend keeps waiting (PostgreSQL notices a closed client only once the
                    // lock is released), so the waiting count grows by one a round.
                    try await eventually("round \(round): the unit waits for the lock") {
                        try await capabilities.postgres.client.withConnection { conn in
                            try await conn.first(
                                "SELECT count(*)::int FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%schema_migrations%'",
                                as: Int.self, logger: logger) ?? 0 > round
                        }
                    }
                    blocked.cancel()
                    await #expect(throws: (any Error).self) { try await blocked.value }
                    // At once, on a table the lock does not hold.
                    #expect(try await capabilities.persistence.control(.read) { try await $0.tenants.list() }.isEmpty, "round \(round)")
                }
                try await lock.run("ROLLBACK", logger: logger)
            }
        }
    }

    /// A backend PostgreSQL ends between two statements of a unit (an administrator's
    /// `pg_terminate_backend`, a failover): the unit ends as unavailable at its next statement, which it
    /// does not send. Sent, it would never be answered, and the unit (the job worker's claim, once) would
    /// wait forever, deadlines or not.
    @Test func aConnectionTheServerEndedMidUnitEndsTheUnitAsUnavailable() async throws {
        try await TestDatabase.with { capabilities, url in
            for access in [UnitAccess.write, .read] {
                let ended = Mutex<(any Error)??>(.none)
                // The backend is ended after the unit's first statement and before its second, whatever the
                // machine's speed: each side waits for the other's step, not for a time.
                let firstDone = Mutex(false)
                let terminated = Mutex(false)
                let unit = Task {
                    do {
                        _ = try await capabilities.persistence.control(access) { unit in
                            _ = try await unit.tenants.list()
                            firstDone.withLock { $0 = true }
                            await Self.pauseIgnoringCancellation(until: { terminated.withLock { $0 } })
                            return try await unit.tenants.list().count
                        }
                        ended.withLock { $0 = .some(nil) }
                    } catch {
                        ended.withLock { $0 = .some(error) }
                    }
                }
                try await eventually("the \(access) unit's first statement") { firstDone.withLock { $0 } }
                try await OtherProcess.with(url: url, vault: capabilities.vault) { other in
                    let killed = try await other.sql(
                        // The server's connections: an autovacuum worker in the database is a superuser's, not to be ended.
                        """
                        SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                        WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND usename = current_user
                        """)
                    #expect(killed >= 1)
                }
                terminated.withLock { $0 = true }
                try await eventually("the \(access) unit ended") { ended.withLock { $0 != nil } }
                let error = ended.withLock { $0 } ?? nil
                guard case .unavailable(let reason)? = error as? StoregateError else {
                    Issue.record("the unit ended with \(String(describing: error)), not as unavailable")
                    continue
                }
                // Either the connection was seen closed and the statement not sent, or it went out as the
                // server ended the backend and came back with the server's reason: both end the unit at once.
                #expect(reason.contains("closed") || reason.contains("terminating connection due to administrator command"), "\(reason)")
                #expect(try await capabilities.persistence.control(.read) { try await $0.tenants.list() }.isEmpty)
                _ = unit
            }
        }
    }

    /// A prepared statement that fails inside a transaction ends its unit with the statement's error, and
    /// nothing the unit wrote is kept.
    @Test func aFailedPreparedStatementInATransactionEndsItsUnit() async throws {
        try await TestDatabase.with { capabilities, _ in
            let made = try await Fixtures.tenant(capabilities, slug: "prepared", bundleId: "com.example.prepared")
            let tenant = made.tenant.tenant
            let ended = Mutex<(any Error)??>(.none)
            Task {
                do {
                    try await capabilities.persistence.inTenant(tenant, .write) { unit in
                        // Three uses on this connection prepare the statement; the fourth fails as a prepared statement.
                        for _ in 0..<3 { try await unit.transactions.upsert(Self.transaction(made.appId, payload: "{}")) }
                        try await unit.transactions.upsert(Self.transaction(made.appId, payload: "not json"))
                    }
                    ended.withLock { $0 = .some(nil) }
                } catch {
                    ended.withLock { $0 = .some(error) }
                }
            }
            try await eventually("the unit ended", timeout: .seconds(5)) { ended.withLock { $0 != nil } }
            #expect((ended.withLock { $0 } ?? nil) != nil, "the invalid JSON was refused")
            #expect(try await Self.transactionCount(capabilities, tenant) == 0, "nothing of the failed transaction was kept")
        }
    }

    /// A prepared statement refused for its values (here invalid JSON) keeps its connection open: the same
    /// unit goes on using it. (The statement is forgotten and prepared afresh; only a failure of the
    /// statement itself closes the connection.)
    @Test func aPreparedStatementRefusingItsValuesKeepsServing() async throws {
        try await TestDatabase.with { capabilities, _ in
            let made = try await Fixtures.tenant(capabilities, slug: "values", bundleId: "com.example.values")
            try await capabilities.persistence.inTenant(made.tenant.tenant, .read) { unit in
                for _ in 0..<3 { try await unit.transactions.upsert(Self.transaction(made.appId, payload: "{}")) }
                await #expect(throws: (any Error).self) { try await unit.transactions.upsert(Self.transaction(made.appId, payload: "not json")) }
                try await unit.transactions.upsert(Self.transaction(made.appId, payload: "{}"))
            }
            #expect(try await Self.transactionCount(capabilities, made.tenant.tenant) == 4)
        }
    }

    static func transaction(_ appId: UUID, payload: String) -> StoredTransaction {
        StoredTransaction(
            appId: appId, environment: .sandbox, transactionId: String(UInt64.random(in: 1...UInt64(1e15))), originalTransactionId: "1", appTransactionId: nil,
            customer: nil, productId: "com.example.coins", productType: .consumable, purchaseDate: Date(), expiresDate: nil, revocationDate: nil,
            appAccountToken: nil, signedDate: Date(), signedTransaction: "x.y.z", payload: payload)
    }

    static func transactionCount(_ capabilities: Capabilities, _ tenant: Tenant) async throws -> Int {
        let schema = try TenantSchema(validating: tenant.storageName).sql
        return try await capabilities.postgres.client.withConnection { conn in
            try await conn.first("SELECT count(*)::bigint FROM \(unescaped: schema).transactions", as: Int.self, logger: capabilities.postgres.logger) ?? -1
        }
    }

    /// Waits like CPU work or a call elsewhere would: cancellation does not end it.
    /// Waits until `condition` holds (polled every 10 ms, 30 s at most), not ending when cancelled.
    static func pauseIgnoringCancellation(until condition: @escaping @Sendable () -> Bool) async {
        for _ in 0..<3000 where !condition() { await pauseIgnoringCancellation(.milliseconds(10)) }
    }

    static func pauseIgnoringCancellation(_ duration: Duration) async {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { continuation.resume() }
        }
    }

    /// A tenant made with the default deadlines: creating a schema on a busy machine with fsync on may take
    /// longer than the tight deadlines the faults are measured against.
    static func tenant(_ cluster: OwnedPostgres, slug: String) async throws -> String {
        try await cluster.withCapabilities(deadlines: DatabaseDeadlines()) { capabilities in
            try await Fixtures.tenant(capabilities, slug: slug, bundleId: "com.example.\(slug)").apiKey
        }
    }

    /// `/readyz` 503 within its readiness deadline; `/rpc` 503 with Retry-After and a ServiceUnavailable error;
    /// a notification 503 with Retry-After (so Apple sends it again); the two calls within `deadline` (the
    /// deadline that ends them). Each bound allows a busy machine's scheduling (`Duration.busyMachine`).
    static func expectUnavailable(_ server: TestServer, apiKey: String, within deadline: Duration) async throws {
        let clock = ContinuousClock()
        var start = clock.now
        let ready = try await server.request("/readyz", method: .GET)
        #expect(ready.status == 503)
        #expect(clock.now - start < DatabaseFaultTests.deadlines.readiness + .busyMachine, "readiness took \(clock.now - start)")

        // A call that reads the database: authentication may be answered from the API key cache (which
        // keeps its entries while the server hears of changes, and a frozen database sends none).
        start = clock.now
        let reply = try await server.rpc(raw: #"{"jsonrpc":"2.0","method":"apps.list","id":7}"#, apiKey: apiKey)
        #expect(clock.now - start < deadline + .busyMachine, "the call took \(clock.now - start)")
        #expect(reply.status == 503)
        #expect(reply.headers.first(name: "Retry-After") == "1")
        let error = (reply.json as? [String: Any])?["error"] as? [String: Any]
        #expect(error?["code"] as? Int == ErrorCode.serviceUnavailable.code)
        #expect((error?["data"] as? [String: Any])?["retryable"] as? Bool == true)

        start = clock.now
        let notification = try await server.request(
            "/apple/notifications/\(token)", body: Array(#"{"signedPayload":"x.y.z"}"#.utf8), headers: [("Content-Type", "application/json")])
        #expect(clock.now - start < deadline + .busyMachine, "the notification took \(clock.now - start)")
        #expect(notification.status == 503)
        #expect(notification.headers.first(name: "Retry-After") == "1")
    }
}
