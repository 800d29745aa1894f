import Foundation
import Logging
import NIOCore
import PostgresNIO
import Storegate
import StoregatePostgres
import Synchronization

/// The data-retention phase: `count` events older than the default events window (500 days old), a tenth of
/// them with a finished webhook delivery, and 10,000 recent events that stay; then `subscriptions.status`
/// read at a steady rate with nothing else running, and again while the job deletes the old ones in its
/// batches (each its own transaction): from the server with the holdings cache, and at the same time from
/// one without it (every read a statement in PostgreSQL, beside the deletions). What the issue promises:
/// the deletion leaves the status p99 as it was.
enum DataRetentionBench {
    struct Figures {
        let seeded: Duration
        let deleted: [DataRetention.Kind: Int]
        let deleting: Duration
        let runs: Int
        let before: Load.Figures
        let during: Load.Figures
        let missBefore: Load.Figures
        let missDuring: Load.Figures
        let left: Int
    }

    static func seed(_ postgres: DatabaseClient, schema: String, appId: UUID, count: Int, logger: Logger) async throws {
        try await postgres.withConnection { @Sendable conn in
            try await conn.run("SET statement_timeout = 0", logger: logger)
            defer { Task { try? await conn.run("RESET statement_timeout", logger: logger) } }
            let base = try await conn.first("SELECT last FROM \(unescaped: schema).event_sequence", as: Int64.self, logger: logger) ?? 0
            try await conn.run(
                """
                INSERT INTO \(unescaped: schema).events (sequence, id, type, app_id, environment, data, created_at)
                SELECT \(base) + i, gen_random_uuid(), 'subscription.renewed', \(appId), 'Sandbox',
                       jsonb_build_object('originalTransactionId', (6000000000000000 + i / 12)::text, 'productId', 'com.example.monthly'),
                       CASE WHEN i <= \(count) THEN now() - interval '500 days' + i * interval '1 second' ELSE now() - interval '1 day' END
                FROM generate_series(1, \(count + 10_000)) i
                """, logger: logger)
            try await conn.run("UPDATE \(unescaped: schema).event_sequence SET last = last + \(count + 10_000)", logger: logger)
            try await conn.run(
                """
                INSERT INTO \(unescaped: schema).webhook_deliveries (endpoint_id, event_sequence, status, attempts, created_at, finished_at)
                SELECT \(UUID()), \(base) + i, 'delivered', 1, now() - interval '500 days', now() - interval '500 days'
                FROM generate_series(1, \(count / 10)) i
                """, logger: logger)
            try await conn.run("ANALYZE \(unescaped: schema).events", logger: logger)
            try await conn.run("ANALYZE \(unescaped: schema).webhook_deliveries", logger: logger)
        }
    }

    static func measure(
        capabilities: Capabilities, postgres: DatabaseClient, tenant: Tenant, schema: String, appId: UUID, count: Int, rpc: Load, miss: Load,
        statusBody: ByteBuffer,
        seconds: Double, rate: Double, settings: DataRetentionSettings, logger: Logger
    ) async throws -> Figures {
        let seeding = ContinuousClock.now
        try await seed(postgres, schema: schema, appId: appId, count: count, logger: logger)
        let seeded = ContinuousClock.now - seeding
        _ = await rpc.closedLoop(seconds: 1, concurrency: 4) { _ in statusBody }  // warm-up
        _ = await miss.closedLoop(seconds: 1, concurrency: 4) { _ in statusBody }
        async let missBefore = miss.openLoop(seconds: seconds, rate: rate) { _ in statusBody }
        let before = await rpc.openLoop(seconds: seconds, rate: rate) { _ in statusBody }

        // The job's runs back to back, as the queue runs them (each ends at its budget, due again at once).
        let job = DataRetentionService(persistence: capabilities.persistence, settings: settings)
        let done = Atomic(false)
        let started = ContinuousClock.now
        async let deletion: (deleted: [DataRetention.Kind: Int], runs: Int, took: Duration) = {
            defer { done.store(true, ordering: .sequentiallyConsistent) }
            var deleted: [DataRetention.Kind: Int] = [:]
            var runs = 0
            while true {
                let run = try await job.run(tenant: tenant)
                runs += 1
                deleted.merge(run.deleted, uniquingKeysWith: +)
                if !run.more { return (deleted, runs, ContinuousClock.now - started) }
            }
        }()
        var during = Load.Figures()
        var missDuring = Load.Figures()
        while !done.load(ordering: .sequentiallyConsistent) {
            async let missSlice = miss.openLoop(seconds: 1, rate: rate) { _ in statusBody }
            let slice = await rpc.openLoop(seconds: 1, rate: rate) { _ in statusBody }
            during.add(slice)
            missDuring.add(await missSlice)
        }
        let result = try await deletion
        let left = try await postgres.withConnection { @Sendable conn in
            try await conn.first("SELECT count(*)::int FROM \(unescaped: schema).events", as: Int.self, logger: logger) ?? -1
        }
        return Figures(
            seeded: seeded, deleted: result.deleted, deleting: result.took, runs: result.runs, before: before, during: during,
            missBefore: await missBefore, missDuring: missDuring, left: left)
    }
}

extension Load.Figures {
    mutating func add(_ slice: Load.Figures) {
        completed += slice.completed
        failed += slice.failed
        seconds += slice.seconds
        latencies += slice.latencies
    }
}
