import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Storegate
import StoregateServer
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The server's own limits: connections that send nothing are closed, and SIGTERM ends the process
/// within its grace period even with a request stuck on a database that stopped answering.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ServerLifecycleTests {
    @Test func idleConnectionsAndSlowHeadersAreClosed() async throws {
        try await TestDatabase.with { capabilities, _ in
            try await TestServer.with(capabilities, configure: { $0.idleTimeout = .milliseconds(500) }) { server in
                let port = try #require(URLComponents(string: server.baseURL)?.port)
                let idle = try RawConnection(port: port)
                let slow = try RawConnection(port: port)
                try slow.send("POST /rpc HTTP/1.1\r\nHost: localhost\r\n")
                let start = ContinuousClock.now
                #expect(idle.waitForClose(upTo: .seconds(5)), "an idle connection stays open")
                // Still sending headers (one more line after 300 ms) does not keep the connection open.
                try await Task.sleep(for: .milliseconds(300))
                try? slow.send("Content-Type: application/json\r\n")
                #expect(slow.waitForClose(upTo: .seconds(5)), "a connection that never finishes its headers stays open")
                #expect(ContinuousClock.now - start < .milliseconds(800) + .busyMachine, "idle timeout 500 ms, slow headers 300 ms later")
                // A connection in use is answered as before.
                #expect(try await server.request("/healthz", method: .GET).status == 200)
            }
        }
    }

    @Test func sigtermEndsWithinTheGracePeriodWithARequestStuckOnADeadDatabase() async throws {
        try await OwnedPostgres.with { cluster in
            let env = ["STOREGATE_DATABASE_URL": cluster.url, "STOREGATE_LOG_LEVEL": "error"]
            #expect(try await CLITests.storegate(["migrate"], environment: env).status == 0)
            let port = try FreePort.find()
            let server = try Subprocess(
                CLITests.binary, ["serve", "--port", String(port), "--shutdown-grace-period", "2"],
                environment: env.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a })
            defer { server.signal(SIGKILL) }

            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            defer { _ = client.shutdown() }
            try await eventually("the server is ready", timeout: .seconds(20)) {
                (try? await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/readyz"), timeout: .seconds(2)).status.code) == 200
            }
            try cluster.freeze()
            defer { try? cluster.thaw() }
            // Authentication of an unknown API key looks it up: a statement the frozen database never answers.
            var stuck = HTTPClientRequest(url: "http://127.0.0.1:\(port)/rpc")
            stuck.method = .POST
            stuck.headers.add(name: "Content-Type", value: "application/json")
            stuck.headers.add(name: "Authorization", value: "Bearer sg_abcdefghij_" + String(repeating: "x", count: 40))
            stuck.body = .bytes(Array(#"{"jsonrpc":"2.0","method":"tenant.get","id":1}"#.utf8))
            let answered = Mutex(false)
            let inFlight = Task {
                _ = try? await client.execute(stuck, timeout: .seconds(30))
                answered.withLock { $0 = true }
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(!answered.withLock { $0 }, "the request is in flight when SIGTERM arrives")

            let start = ContinuousClock.now
            server.signal(SIGTERM)
            let status = await server.waitForExit(upTo: .seconds(8))
            let elapsed = ContinuousClock.now - start
            #expect(status != nil, "the server was still running \(elapsed) after SIGTERM")
            // Shutdown waits for the request (so not at once), and cancels it when the grace period ends.
            #expect(elapsed > .milliseconds(1500) && elapsed < .seconds(2) + .busyMachine, "2 s grace period, then cancellation: took \(elapsed)")
            _ = await inFlight.value
        }
    }
}
