import Foundation
import NIOCore

/// A storm of console sign-ins from wrk's process (64 connections, wrong passwords, half for one person and
/// half for people who do not exist, each with a sign-in form token of its own), and meanwhile: the RPC's
/// `subscriptions.status` at a steady rate from this process, and `/readyz` every 100 ms. What the issue
/// promises: readiness stays 200 and the status p99 under 50 ms, whatever arrives at `/console/sign-in`.
enum SignInStorm {
    struct Figures {
        let signIns: Double
        let statuses: [Int: Int]
        let status: Load.Figures
        let readiness: (checks: Int, notReady: Int, slowest: Double)
    }

    static func script(tenant: String) -> String {
        """
        local threads = {}
        function setup(thread) table.insert(threads, thread) end
        function init(args) counts = {}; n = 0 end
        request = function()
            n = n + 1
            local token = string.format("%043d", n)
            local email = (n % 2 == 0) and "support%40bench.example" or ("nobody" .. n .. "-" .. math.random(1000000) .. "%40bench.example")
            local body = "csrf=" .. token .. "&tenant=\(tenant)&email=" .. email .. "&password=a-wrong-password-" .. n
            return wrk.format("POST", "/console/sign-in",
                { ["Content-Type"] = "application/x-www-form-urlencoded", ["Cookie"] = "__Host-storegate-sign-in=" .. token }, body)
        end
        response = function(status, headers, body) counts[status] = (counts[status] or 0) + 1 end
        function done(summary, latency, requests)
            local total = {}
            for _, thread in ipairs(threads) do
                for status, count in pairs(thread:get("counts")) do total[status] = (total[status] or 0) + count end
            end
            for status, count in pairs(total) do io.write(string.format("status %d: %d\\n", status, count)) end
        end
        """
    }

    /// Runs the storm for `seconds` beside the status reads and readiness checks.
    static func run(base: String, tenant: String, rpc: Load, statusBody: ByteBuffer, seconds: Double) async -> Figures? {
        async let storm = Wrk.output(url: base + "/console/sign-in", connections: 64, seconds: seconds, script: script(tenant: tenant))
        // The reads start once the storm has begun, and end before it does.
        try? await Task.sleep(for: .seconds(1))
        async let readiness = readinessChecks(base: base, seconds: seconds - 2)
        let status = await rpc.openLoop(seconds: seconds - 2, rate: 200) { _ in statusBody }
        guard let output = await storm else { return nil }
        var statuses: [Int: Int] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("status ") {
            let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            if numbers.count == 2 { statuses[numbers[0]] = numbers[1] }
        }
        return Figures(signIns: Wrk.parse(output)?.perSecond ?? 0, statuses: statuses, status: status, readiness: await readiness)
    }

    static func readinessChecks(base: String, seconds: Double) async -> (checks: Int, notReady: Int, slowest: Double) {
        let end = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        var (checks, notReady, slowest) = (0, 0, 0.0)
        while ContinuousClock.now < end {
            let start = ContinuousClock.now
            let ready = await Load.get(base + "/readyz")
            slowest = max(slowest, (ContinuousClock.now - start) / .milliseconds(1))
            checks += 1
            if !ready { notReady += 1 }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return (checks, notReady, slowest)
    }
}
