import AppStoreServer
import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1

/// Apple's performance test of an app's Get Retention Message endpoint: `totalRequests` realtime requests
/// signed with the simulator's chain, at most `maxConcurrentRequests` at a time, each a success when it is
/// answered 200, with a body Apple can read, within `responseTimeThreshold` milliseconds; the test passes
/// when at least `successRateThreshold` percent succeed. The configuration is Apple's (its test vector),
/// unless the simulator was made with another (`AppStoreSimulator(performanceTest:)`).
extension AppStoreSimulator {
    public static let applesPerformanceTest = PerformanceTestConfig(
        maxConcurrentRequests: 10, totalRequests: 100, totalDuration: 60_000, responseTimeThreshold: 500, successRateThreshold: 95)

    func startPerformanceTest(_ request: Request, _ context: SimulatorContext) async throws -> Response {
        var request = request
        let data = Data(try await request.collectBody(upTo: 1 << 16).readableBytesView)
        guard let body = try? JSONDecoder().decode(PerformanceTestRequest.self, from: data),
            let purchase = await store.transaction(bundleId: context.bundleId, id: body.originalTransactionId),
            let app = await store.app(context.bundleId)
        else {
            return Self.error(.invalidPerformanceTestRequest, "Invalid performance test request.", status: .badRequest)
        }
        let environment = await environment(context)
        let config = performanceTest
        let requestId = UUID().uuidString.lowercased()
        let url: String
        do {
            url = try await store.retention(bundleId: context.bundleId, environment: environment) { state -> String in
                let url = try state.configuredRealtimeURL()
                guard !state.performanceTests.values.contains(where: { $0.result == .pending }) else {
                    throw RetentionMessaging.Refusal(.existingPerformanceTestRun, "A performance test is already running.", .badRequest)
                }
                state.performanceTests[requestId] = PerformanceTestResultResponse(
                    config: config, target: url, result: .pending, successRate: 0, numPending: Int32(config.totalRequests),
                    responseTimes: PerformanceTestResponseTimes(average: 0, p50: 0, p90: 0, p95: 0, p99: 0), failures: [:])
                return url
            }
        } catch let refusal as RetentionMessaging.Refusal {
            return Self.error(refusal.code, refusal.message, status: refusal.status)
        }
        let template = DecodedRealtimeRequestBody(
            originalTransactionId: body.originalTransactionId, appAppleId: app.appAppleId ?? 0, productId: purchase.productId ?? "", userLocale: "en-US",
            requestIdentifier: LowercaseUUID(UUID()), signedDate: Timestamp(now()), environment: environment)
        let (bundleId, http) = (context.bundleId, sender?.http ?? HTTPClient.shared)
        Task { [store, ca, now] in
            let result = await Self.runPerformanceTest(config: config, target: url, template: template, ca: ca, http: http, now: now)
            await store.retention(bundleId: bundleId, environment: environment) { $0.performanceTests[requestId] = result }
        }
        return Self.json(PerformanceTestResponse(config: config, requestId: requestId))
    }

    static func runPerformanceTest(
        config: PerformanceTestConfig, target: String, template: DecodedRealtimeRequestBody, ca: SimulatorCA, http: HTTPClient,
        now: @escaping @Sendable () -> Date
    ) async -> PerformanceTestResultResponse {
        let total = Int(config.totalRequests)
        let threshold = TimeAmount.milliseconds(config.responseTimeThreshold)
        var outcomes: [RealtimeExchange] = []
        await withTaskGroup(of: RealtimeExchange.self) { group in
            var sent = 0
            func send() {
                var request = template
                request.requestIdentifier = LowercaseUUID(UUID())
                request.signedDate = Timestamp(now())
                group.addTask { await Self.exchangeRealtimeRequest(request, to: target, ca: ca, http: http, timeout: threshold) }
                sent += 1
            }
            while sent < min(total, Int(config.maxConcurrentRequests)) { send() }
            for await outcome in group {
                outcomes.append(outcome)
                if sent < total { send() }
            }
        }
        let answered = outcomes.compactMap(\.milliseconds).sorted()
        func percentile(_ p: Double) -> Int64 { answered.isEmpty ? 0 : answered[min(answered.count - 1, Int((Double(answered.count) * p).rounded(.up)) - 1)] }
        let successes = outcomes.filter { $0.result == .success }.count
        let rate = Int32(total == 0 ? 0 : successes * 100 / total)
        var failures: [String: Int32] = [:]
        for outcome in outcomes where outcome.result != .success { failures[outcome.result.rawValue, default: 0] += 1 }
        return PerformanceTestResultResponse(
            config: config, target: target, result: rate >= config.successRateThreshold ? .pass : .fail, successRate: rate, numPending: 0,
            responseTimes: PerformanceTestResponseTimes(
                average: answered.isEmpty ? 0 : answered.reduce(0, +) / Int64(answered.count), p50: percentile(0.5), p90: percentile(0.9),
                p95: percentile(0.95), p99: percentile(0.99)),
            failures: failures)
    }

    /// What came of a realtime request: Apple's result for it, the endpoint's status and answer, and how
    /// long the answer took (milliseconds), when there was one.
    struct RealtimeExchange: Encodable, Sendable {
        var result: SendAttemptResult
        var status: Int?
        var answer: RealtimeResponseBody?
        var milliseconds: Int64?
    }

    /// Posts one signed realtime request as Apple does: a success is a 200 whose body Apple can read,
    /// within `timeout`.
    static func exchangeRealtimeRequest(
        _ body: DecodedRealtimeRequestBody, to url: String, ca: SimulatorCA, http: HTTPClient, timeout: TimeAmount
    ) async -> RealtimeExchange {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        guard let signed = try? ca.sign(body), let encoded = try? JSONEncoder().encode(RealtimeRequestBody(signedPayload: signed)) else {
            return RealtimeExchange(result: .other)
        }
        request.body = .bytes(ByteBuffer(bytes: encoded))
        let start = ContinuousClock.now
        do {
            let response = try await http.execute(request, timeout: timeout)
            let data = Data(try await response.body.collect(upTo: 1 << 16).readableBytesView)
            let elapsed = ContinuousClock.now - start
            // The whole answer, body included, must come within the threshold.
            guard elapsed <= .nanoseconds(timeout.nanoseconds) else { return RealtimeExchange(result: .timedOut) }
            var exchange = RealtimeExchange(result: .success, status: Int(response.status.code), milliseconds: elapsed.milliseconds)
            guard response.status == .ok else {
                exchange.result = .unsuccessfulHttpResponseCode
                return exchange
            }
            exchange.answer = try? JSONDecoder().decode(RealtimeResponseBody.self, from: data)
            if exchange.answer == nil { exchange.result = .invalidResponse }
            return exchange
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            return RealtimeExchange(result: .timedOut)
        } catch {
            return RealtimeExchange(result: .noResponse)
        }
    }
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
