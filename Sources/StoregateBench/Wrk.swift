import Foundation

/// wrk (Debian's `wrk` package), the external load generator beside the in-process one: one JSON-RPC
/// body POSTed over keep-alive connections from its own process. nil when wrk is not installed.
enum Wrk {
    struct Figures {
        let perSecond: Double
        let p50: String
        let p99: String
        let failed: Int
    }

    static let script = """
        wrk.method = "POST"
        wrk.body = os.getenv("WRK_BODY")
        wrk.headers["Content-Type"] = "application/json"
        local authorization = os.getenv("WRK_AUTHORIZATION")
        if authorization and authorization ~= "" then wrk.headers["Authorization"] = authorization end
        """

    /// The POST of `WRK_BODY` as JSON, and `keys`: each of `authorizations`, for the script that follows.
    private static func withKeys(_ authorizations: [String]) -> String {
        let keys = authorizations.map { "\"\($0)\"" }.joined(separator: ",\n")
        return """
            wrk.method = "POST"
            wrk.body = os.getenv("WRK_BODY")
            wrk.headers["Content-Type"] = "application/json"
            local keys = {
            \(keys)
            }
            """
    }

    /// Each request with one of `authorizations`, chosen at random: many tenants' API keys.
    static func randomAuthorization(_ authorizations: [String]) -> String {
        withKeys(authorizations) + """

            math.randomseed(os.time())
            request = function()
                wrk.headers["Authorization"] = keys[math.random(#keys)]
                return wrk.format(nil, nil, wrk.headers, wrk.body)
            end
            """
    }

    /// Each request with the next of `authorizations`, none twice while they last (wrk's two threads take
    /// every other one): each tenant's first read, when each is another tenant's key.
    static func eachOnce(_ authorizations: [String]) -> String {
        withKeys(authorizations) + """

            local threads = 0
            function setup(thread)
                thread:set("first", threads)
                threads = threads + 1
            end
            function init(args) n = first end
            request = function()
                n = n + 2
                wrk.headers["Authorization"] = keys[(n % #keys) + 1]
                return wrk.format(nil, nil, wrk.headers, wrk.body)
            end
            """
    }

    /// Each request POSTs the next of `requests` (a path, or nil for the URL's; a JSON body on one line),
    /// none twice while they last: wrk's two threads take every other one. They go in a file, read once per
    /// thread and removed at the end.
    static func inTurn(_ requests: [(path: String?, body: String)]) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("storegate-wrk-requests-\(UUID()).txt").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(requests.map { ($0.path ?? "-") + " " + $0.body }.joined(separator: "\n").utf8))
        return """
            local threads = 0
            function setup(thread)
                thread:set("first", threads)
                threads = threads + 1
            end
            function init(args)
                paths = {}
                bodies = {}
                for line in io.lines("\(path)") do
                    local target, body = line:match("^(%S+) (.*)$")
                    if target == "-" then target = nil end
                    paths[#bodies + 1] = target
                    bodies[#bodies + 1] = body
                end
                n = first
            end
            function done(summary, latency, requests)
                os.remove("\(path)")
            end
            local headers = { ["Content-Type"] = "application/json" }
            request = function()
                n = n + 2
                local i = (n % #bodies) + 1
                return wrk.format("POST", paths[i], headers, bodies[i])
            end
            """
    }

    static func run(
        url: String, body: String, authorization: String?, connections: Int, seconds: Double, script: String = Wrk.script
    ) async -> Figures? {
        setenv("WRK_BODY", body, 1)
        setenv("WRK_AUTHORIZATION", authorization ?? "", 1)
        return await output(url: url, connections: connections, seconds: seconds, script: script).flatMap(parse)
    }

    /// One POST for `run`: where, what, and with which `Authorization`.
    struct Target {
        let url: String
        let body: String
        let authorization: String?
    }

    /// Each of `targets` in turn for one second, `rounds` times over: on a shared machine whose speed drifts
    /// from one second to the next, figures set beside each other are measured in the same seconds. Each
    /// target's rate is the mean of its rounds, its latencies those of its median round; nil when wrk is not
    /// installed.
    static func interleaved(_ targets: [Target], rounds: Int, connections: Int) async -> [Figures]? {
        var measured = [[Figures]](repeating: [], count: targets.count)
        for _ in 0..<max(1, rounds) {
            for (index, target) in targets.enumerated() {
                guard let figures = await run(url: target.url, body: target.body, authorization: target.authorization, connections: connections, seconds: 1)
                else { return nil }
                measured[index].append(figures)
            }
        }
        return measured.map { rounds in
            let median = rounds.sorted { $0.perSecond < $1.perSecond }[rounds.count / 2]
            let rate = rounds.reduce(0) { $0 + $1.perSecond } / Double(rounds.count)
            return Figures(perSecond: rate, p50: median.p50, p99: median.p99, failed: rounds.reduce(0) { $0 + $1.failed })
        }
    }

    /// wrk's whole report for `script` against `url`; nil when wrk is not installed.
    static func output(url: String, connections: Int, seconds: Double, script: String) async -> String? {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("storegate-wrk-\(UUID()).lua").path
        guard FileManager.default.createFile(atPath: path, contents: Data(script.utf8)) else { return nil }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let arguments = ["wrk", "-t", "2", "-c", String(connections), "-d", "\(Int(seconds.rounded(.up)))s", "--latency", "-s", path, url]
        // wrk runs for seconds: off the cooperative pool, which the server in this process needs.
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: OpenSSLSpeed.run(arguments)) }
        }
    }

    /// The figures of wrk's report: `Requests/sec`, the 50% and 99% latencies, non-2xx answers and socket errors.
    static func parse(_ output: String) -> Figures? {
        var perSecond: Double?
        var p50 = "?"
        var p99 = "?"
        var failed = 0
        for line in output.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            if line.hasPrefix("Requests/sec:"), let value = fields.last.flatMap(Double.init) { perSecond = value }
            if fields.first == "50%", fields.count == 2 { p50 = fields[1] }
            if fields.first == "99%", fields.count == 2 { p99 = fields[1] }
            if line.hasPrefix("Non-2xx or 3xx responses:"), let value = fields.last.flatMap(Int.init) { failed += value }
            if line.hasPrefix("Socket errors:") {
                // "Socket errors: connect 0, read 0, write 0, timeout 0"
                failed += line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.reduce(0, +)
            }
        }
        return perSecond.map { Figures(perSecond: $0, p50: p50, p99: p99, failed: failed) }
    }
}
