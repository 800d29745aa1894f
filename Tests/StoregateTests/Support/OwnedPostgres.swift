import Foundation
import Logging
import PostgresNIO
import Storegate
import StoregatePostgres

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL cluster that belongs to one test, so the test may crash it, freeze it and start it
/// again: started by `deploy/local/postgres.sh` on a free port with its data in a temporary directory,
/// and removed when the test ends.
struct OwnedPostgres: Sendable {
    let port: Int
    let data: String
    /// The port of the primary this cluster streams from, when it is a standby.
    var standbyOf: Int?
    var url: String { "postgres://storegate@127.0.0.1:\(port)/storegate?sslmode=disable" }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("deploy/local/postgres.sh").path

    /// Runs `body` with a started cluster; stops and removes it afterwards.
    static func with<T: Sendable>(_ body: @Sendable (OwnedPostgres) async throws -> T) async throws -> T {
        let cluster = OwnedPostgres(port: try FreePort.find(), data: "/var/tmp/storegate-test-pg-\(UUID().uuidString.lowercased().prefix(8))")
        do {
            try await cluster.start()
            let result = try await body(cluster)
            try await cluster.remove()
            return result
        } catch {
            try? await cluster.remove()
            throw error
        }
    }

    func start() async throws { try await script("start") }
    /// Makes a standby the primary.
    func promote() async throws { try await script("promote") }

    /// A streaming standby of this cluster (a base backup of it, on a port of its own) for the length of
    /// `body`; stopped and removed afterwards.
    func withStandby<T: Sendable>(_ body: @Sendable (OwnedPostgres) async throws -> T) async throws -> T {
        let standby = OwnedPostgres(
            port: try FreePort.find(), data: "/var/tmp/storegate-test-pg-\(UUID().uuidString.lowercased().prefix(8))", standbyOf: port)
        do {
            try await standby.start()
            let result = try await body(standby)
            try await standby.remove()
            return result
        } catch {
            try? await standby.remove()
            throw error
        }
    }
    /// Stops the server at once, as a crash would: every connection drops.
    func crash() async throws { try await script("crash") }

    /// Stops every process of the cluster (SIGSTOP): connections stay open and nothing answers, as when
    /// the database's host is cut off. `thaw` resumes them.
    func freeze() throws { try signal(SIGSTOP) }
    func thaw() throws { try signal(SIGCONT) }

    private func signal(_ signal: Int32) throws {
        let pidFile = try String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8)
        guard let postmaster = pidFile.split(separator: "\n").first.flatMap({ Int32($0) }) else { throw ScriptFailed(description: "no postmaster.pid") }
        for pid in [postmaster] + Self.children(of: postmaster) { kill(pid, signal) }
    }

    /// The processes whose parent is `parent`, from /proc.
    private static func children(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (comm) " come the state and then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent ? pid : nil
        }
    }

    /// Stops the cluster (unless a test already did) and removes its data.
    private func remove() async throws {
        try? thaw()
        if FileManager.default.fileExists(atPath: data + "/postmaster.pid") { try await script("crash") }
        try FileManager.default.removeItem(atPath: data)
    }

    private func script(_ command: String) async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["STOREGATE_PG_PORT"] = String(port)
        environment["STOREGATE_PG_DATA"] = data
        // What was committed survives `crash`, as in production.
        environment["STOREGATE_PG_DURABLE"] = "1"
        if let standbyOf { environment["STOREGATE_PG_STANDBY_OF"] = String(standbyOf) }
        let run = try await Subprocess.run("/bin/bash", [Self.script, command], environment: environment)
        guard run.status == 0 else { throw ScriptFailed(description: "postgres.sh \(command): \(run.stderr)") }
    }

    struct ScriptFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// Capabilities over this cluster, migrated, with a running database client, for the length of `body`.
    /// `url` names other nodes than this cluster alone when given (a primary and its standbys).
    func withCapabilities<T: Sendable>(
        deadlines: DatabaseDeadlines, authCacheTTL: Duration = .milliseconds(100), url: String? = nil, logger: Logger = TestLog.logger("test"),
        _ body: @Sendable (Capabilities) async throws -> T
    ) async throws -> T {
        let config = try DatabaseConfiguration(url: url ?? self.url, maximumConnections: 4, connectTimeout: .seconds(1))
        let client = DatabaseClient(configuration: config, backgroundLogger: logger)
        let postgres = PostgresPersistence(client: client, logger: logger, deadlines: deadlines)
        let capabilities = try Capabilities(
            persistence: postgres, vault: TestDatabase.makeVault(), logger: logger, authCacheTTL: authCacheTTL, reconciliation: TestDatabase.reconciliation)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                await client.run()
                return nil
            }
            defer { group.cancelAll() }
            try await postgres.migrator.migrateControl()
            return try await body(capabilities)
        }
    }
}

/// A port for a server the test starts itself. It is taken below the kernel's ephemeral range
/// (`ip_local_port_range`, 32768 and up by default): a port the kernel handed out as free can be given,
/// a moment later, to some connection's local end, and a server started on it then fails with
/// "address in use" (seen once in about twenty full runs when a crashed cluster restarted).
enum FreePort {
    static let range = 20_000..<32_000

    static func find() throws -> Int {
        for _ in 0..<100 {
            let port = Int.random(in: range)
            if try isFree(port) { return port }
        }
        throw OwnedPostgres.ScriptFailed(description: "no free port in \(range)")
    }

    private static func isFree(_ port: Int) throws -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw OwnedPostgres.ScriptFailed(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
