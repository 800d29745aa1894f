import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// HTTP load over keep-alive connections: closed loops at a fixed concurrency, or an open loop at a fixed rate.
struct Load {
    let client: HTTPClient
    let url: String
    let headers: HTTPHeaders

    struct Figures {
        var completed = 0
        var failed = 0
        var seconds = 0.0
        var latencies: [Double] = []
        var perSecond: Double { Double(completed) / seconds }
        func percentile(_ p: Double) -> Double {
            guard !latencies.isEmpty else { return .nan }
            let sorted = latencies.sorted()
            return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
        }
    }

    /// One request; returns whether it succeeded (HTTP 2xx and, for JSON-RPC, no `"error"`).
    func send(_ body: ByteBuffer) async -> Bool {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers = headers
        request.body = .bytes(body)
        do {
            let response = try await client.execute(request, timeout: .seconds(30))
            let bytes = try await response.body.collect(upTo: 64 << 20)
            guard (200..<300).contains(Int(response.status.code)) else { return false }
            return !Self.containsError(bytes)
        } catch {
            return false
        }
    }

    /// Whether a GET of `url` is answered 200 (on the shared client, within 30 s).
    static func get(_ url: String) async -> Bool {
        do {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
            return response.status == .ok
        } catch {
            return false
        }
    }

    /// Whether a JSON-RPC answer holds an `"error":` member: a plain byte scan, so that the load generator,
    /// which shares the machine with the server, costs as little as it can.
    static func containsError(_ buffer: ByteBuffer) -> Bool {
        let needle = Array(#""error":"#.utf8)
        return buffer.withUnsafeReadableBytes { raw in
            guard raw.count >= needle.count else { return false }
            var index = 0
            while index <= raw.count - needle.count {
                if raw[index] == needle[0], (1..<needle.count).allSatisfy({ raw[index + $0] == needle[$0] }) { return true }
                index += 1
            }
            return false
        }
    }

    /// `concurrency` callers, each sending the next body as soon as the previous answer came back.
    func closedLoop(seconds: Double, concurrency: Int, body: @escaping @Sendable (Int) -> ByteBuffer) async -> Figures {
        let start = ContinuousClock.now
        let end = start + .milliseconds(Int64(seconds * 1000))
        let results = await withTaskGroup(of: (Int, Int).self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var ok = 0
                    var failed = 0
                    var n = worker
                    while ContinuousClock.now < end {
                        if await send(body(n)) { ok += 1 } else { failed += 1 }
                        n += concurrency
                    }
                    return (ok, failed)
                }
            }
            return await group.reduce(into: (0, 0)) {
                $0.0 += $1.0
                $0.1 += $1.1
            }
        }
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        return Figures(completed: results.0, failed: results.1, seconds: elapsed)
    }

    /// Requests started at `rate` per second whatever the answers (an open loop), each one timed.
    func openLoop(seconds: Double, rate: Double, body: @escaping @Sendable (Int) -> ByteBuffer) async -> Figures {
        let total = Int(seconds * rate)
        let interval = Duration.nanoseconds(Int64(1e9 / rate))
        let start = ContinuousClock.now
        let timings = await withTaskGroup(of: (Bool, Double).self) { group in
            for i in 0..<total {
                let due = start + interval * i
                let now = ContinuousClock.now
                if due > now { try? await Task.sleep(until: due, clock: .continuous) }
                group.addTask {
                    let began = ContinuousClock.now
                    let ok = await send(body(i))
                    return (ok, (ContinuousClock.now - began) / .milliseconds(1))
                }
            }
            return await group.reduce(into: [(Bool, Double)]()) { $0.append($1) }
        }
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        return Figures(
            completed: timings.filter(\.0).count, failed: timings.filter { !$0.0 }.count, seconds: elapsed, latencies: timings.filter(\.0).map(\.1))
    }
}
