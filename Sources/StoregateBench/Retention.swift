import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Storegate

/// Apple's Get Retention Message requests at the app's `/apple/retention/<token>`: each verified (signed by
/// the simulator's chain, as Apple's would be), its subscription read through the holdings cache, a rule
/// that answers with a promotional offer signed then, and the answer evented and audited before it is
/// sent. Distinct requests, each signed just before its run (their `signedDate` must be recent). At 500/s
/// (the issue's target: p99 < 20 ms) in an open loop, then as fast as wrk's 8 connections go.
enum RetentionBench {
    static func measure(
        capabilities: Capabilities, tenant: Tenant, bundleId: String, token: String, base: String, originalTransactionId: String, simulator: AppStoreSimulator,
        http: HTTPClient, seconds: Double, line: (String, String) -> Void
    ) async throws {
        _ = try await capabilities.retentionRules.setRules(
            tenant: tenant, bundleId: bundleId,
            rules: [
                RetentionRule(
                    name: "stay", when: RetentionConditions(productIds: ["com.example.monthly"], locales: ["en"]),
                    answer: RetentionAnswer(promotionalOffer: RetentionPromotionalOffer(offerIdentifier: "STAY50")))
            ], actor: .cli)
        let url = base + "/apple/retention/" + token
        func requests(_ count: Int) throws -> [String] {
            try (0..<count).map { _ in
                let request = DecodedRealtimeRequestBody(
                    originalTransactionId: originalTransactionId, appAppleId: 1, productId: "com.example.monthly", userLocale: "en-US",
                    requestIdentifier: LowercaseUUID(UUID()), signedDate: Timestamp(Date()), environment: .sandbox)
                return #"{"signedPayload":"\#(try simulator.ca.sign(request))"}"#
            }
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        let load = Load(client: http, url: url, headers: headers)
        let warm = try requests(200).map { ByteBuffer(string: $0) }
        _ = await load.closedLoop(seconds: 1, concurrency: 4) { warm[$0 % warm.count] }

        // The answer is an offer: checked once, so that the figures are of answers, not of `{}`.
        var probe = HTTPClientRequest(url: url)
        probe.method = .POST
        probe.headers = headers
        probe.body = .bytes(ByteBuffer(string: try requests(1)[0]))
        let answer = try await http.execute(probe, timeout: .seconds(10)).body.collect(upTo: 1 << 16)
        guard String(buffer: answer).contains("promotionalOfferSignatureV2") else {
            return line("retention answers", "not an offer: \(String(buffer: answer))")
        }

        let rate = 500.0
        let paced = try requests(Int(seconds * rate)).map { ByteBuffer(string: $0) }
        let open = await load.openLoop(seconds: seconds, rate: rate) { paced[$0 % paced.count] }
        line(
            "retention answers at 500/s (open loop)",
            String(
                format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms (target p99 < 20 ms); %.0f/s, %d failed", open.percentile(0.5), open.percentile(0.99),
                open.latencies.max() ?? .nan, open.perSecond, open.failed))
        let most = try requests(Int(seconds * 4000))
        let wrk = await Wrk.run(
            url: url, body: "", authorization: nil, connections: 8, seconds: seconds, script: Wrk.inTurn(most.map { (path: nil, body: $0) }))
        line(
            "wrk -c 8: retention answers, as fast as they go",
            wrk.map { String(format: "%.0f/s, p50 %@, p99 %@ (%d failed)", $0.perSecond, $0.p50, $0.p99, $0.failed) } ?? "wrk not installed")
    }
}
