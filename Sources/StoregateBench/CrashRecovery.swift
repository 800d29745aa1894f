import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import Logging
import NIOHTTP1
import PostgresNIO
import Storegate
import StoregatePostgres

#if canImport(Glibc)
    import Glibc
#endif

/// `storegate serve` (built beside this program) receiving notifications from wrk is killed with SIGKILL
/// halfway and started again at once: how long after the restart the notifications the killed process
/// had claimed are applied (they come back when their lease runs out, 10 s), and every notification it
/// acknowledged (the backlog of the load too).
enum CrashRecovery {
    static func measure(
        simulator: AppStoreSimulator, tenant: Tenant, webhookToken: String, notifications: [String], postgres: DatabaseClient, seconds: Double,
        line: (String, String) -> Void
    ) async throws {
        let label = "kill -9 of storegate serve under notification load"
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("storegate").path
        guard FileManager.default.isExecutableFile(atPath: binary) else { return line(label, "storegate is not built beside the bench") }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("storegate-bench-root-\(UUID()).der")
        try simulator.ca.rootDER.write(to: root)
        defer { try? FileManager.default.removeItem(at: root) }
        let port = Int.random(in: 20_000..<30_000)
        let base = "http://127.0.0.1:\(port)"
        var environment = ProcessInfo.processInfo.environment
        environment["STOREGATE_LOG_LEVEL"] = "critical"
        func start() throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["serve", "--port", String(port), "--trust-root", root.path, "--no-ocsp"]
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        func ready() async throws {
            for _ in 0..<600 {
                if let response = try? await HTTPClient.shared.execute(HTTPClientRequest(url: base + "/readyz"), timeout: .seconds(1)),
                    response.status == .ok
                {
                    return
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        let schema = try TenantSchema(validating: tenant.storageName).sql
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        // The tenant's notifications and those acknowledged into the inbox, not yet taken in.
        @Sendable func count(_ condition: String) async throws -> Int {
            try await postgres.withConnection { conn in
                try await conn.first(
                    """
                    SELECT count(*)::int FROM (
                        SELECT notification_uuid, processed_at FROM \(unescaped: schema).notifications
                        UNION ALL
                        SELECT notification_uuid, NULL FROM storegate.notification_inbox WHERE tenant_id = \(tenant.id)
                    ) n WHERE \(unescaped: condition)
                    """, as: Int.self, logger: logger) ?? 0
            }
        }
        let before = try await count("true")
        var server = try start()
        try await ready()
        let url = base + "/apple/notifications/" + webhookToken
        let load = Task {
            await Wrk.run(url: url, body: "", authorization: nil, connections: 8, seconds: seconds, script: Wrk.inTurn(notifications.map { (nil, $0) }))
        }
        try await Task.sleep(for: .seconds(seconds / 2))
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        let killed = ContinuousClock.now
        let claimed = try await postgres.withConnection { conn in
            var refs: [String] = []
            let rows = try await conn.query("SELECT ref FROM storegate.jobs WHERE claimed_by IS NOT NULL AND kind = 'process_notification'", logger: logger)
            for try await ref in rows.decode(String.self) { refs.append(ref) }
            return refs
        }
        server = try start()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        try await ready()
        let restarted = ContinuousClock.now
        let posted = await load.value
        let acknowledged = try await count("true") - before
        var waiting = try await count("processed_at IS NULL")
        let unappliedAtEnd = waiting
        var trace: [Int] = []
        var nextSample = ContinuousClock.now
        var claimsApplied: ContinuousClock.Instant?
        let claimedList = "'{" + claimed.joined(separator: ",") + "}'::uuid[]"
        while waiting > 0, ContinuousClock.now - restarted < .seconds(120) {
            try await Task.sleep(for: .milliseconds(20))
            waiting = try await count("processed_at IS NULL")
            if claimsApplied == nil, try await count("processed_at IS NULL AND notification_uuid = ANY(\(claimedList))") == 0 {
                claimsApplied = ContinuousClock.now
            }
            if ContinuousClock.now >= nextSample {
                trace.append(waiting)
                nextSample = nextSample + .seconds(1)
            }
        }
        let applied = ContinuousClock.now
        line(
            label,
            String(
                format: "%d acknowledged (%.0f/s posted, %d refused or cut off while down); restarted %.2f s after the kill",
                acknowledged, posted?.perSecond ?? .nan, posted?.failed ?? 0, (restarted - killed) / .seconds(1)))
        line(
            "  the \(claimed.count) it had claimed, applied",
            claimsApplied.map { String(format: "%.2f s after the restart", ($0 - restarted) / .seconds(1)) } ?? "not within 120 s")
        line(
            "  every acknowledged notification applied",
            waiting == 0
                ? String(
                    format: "%.2f s after the restart (%d were unapplied when the load ended; then each second: ", (applied - restarted) / .seconds(1),
                    unappliedAtEnd)
                    + trace.map(String.init).joined(separator: ", ") + ")"
                : "not within 120 s: \(waiting) left")
    }
}
