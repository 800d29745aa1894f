import Foundation
import Logging
import PostgresNIO
import StoregatePostgres

/// The private memory of the PostgreSQL backends serving Storegate's database (`RssAnon` in
/// `/proc/<pid>/status`: catalog caches, plans, work memory; not the shared buffers), when PostgreSQL runs
/// on this machine. On Citus, the coordinator's and each worker's (the coordinator's connections to them).
enum BackendMemory {
    static func measure(_ client: DatabaseClient) async throws -> String {
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let backends = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'"
        let (pids, workers) = try await client.withConnection { conn in
            var pids: [Int32] = []
            for try await pid in try await conn.query(PostgresQuery(unsafeSQL: backends), logger: logger).decode(Int32.self) { pids.append(pid) }
            var workers: [(node: String, pids: [Int32])] = []
            if try await conn.first("SELECT count(*)::int FROM pg_extension WHERE extname = 'citus'", as: Int.self, logger: logger) == 1 {
                let rows = try await conn.query(
                    """
                    SELECT nodename || ':' || nodeport, coalesce(result, '') FROM run_command_on_workers(
                        $$SELECT string_agg(pid::text, ',') FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'$$)
                    ORDER BY nodeport
                    """, logger: logger)
                for try await (node, list) in rows.decode((String, String).self) {
                    workers.append((node, list.split(separator: ",").compactMap { Int32($0) }))
                }
            }
            return (pids, workers)
        }
        var parts = [summary(pids)]
        if !workers.isEmpty { parts[0] = "coordinator " + parts[0] }
        for worker in workers { parts.append("worker \(worker.node) " + summary(worker.pids)) }
        return parts.joined(separator: "; ")
    }

    static func summary(_ pids: [Int32]) -> String {
        let kilobytes = pids.compactMap { pid -> Int? in
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
            let line = status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") }
            return line.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
        }
        guard !kilobytes.isEmpty else { return "not readable (PostgreSQL elsewhere?)" }
        let total = kilobytes.reduce(0, +)
        return String(format: "%d backends, %.1f MB in all, %.1f MB the largest", kilobytes.count, Double(total) / 1024, Double(kilobytes.max() ?? 0) / 1024)
    }
}
