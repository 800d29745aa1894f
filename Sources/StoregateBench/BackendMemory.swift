import Foundation
import Logging
import PostgresNIO
import StoregatePostgres

/// The private memory of the PostgreSQL backends serving Storegate's database (`RssAnon` in
/// `/proc/<pid>/status`: catalog caches, plans, work memory; not the shared buffers), when PostgreSQL runs
/// on this machine.
enum BackendMemory {
    static func measure(_ client: DatabaseClient) async throws -> String {
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let pids = try await client.withConnection { conn in
            var pids: [Int32] = []
            let rows = try await conn.query(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'", logger: logger)
            for try await pid in rows.decode(Int32.self) { pids.append(pid) }
            return pids
        }
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
