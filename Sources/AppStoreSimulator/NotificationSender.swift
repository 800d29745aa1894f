import AppStoreServer
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Sends App Store Server Notifications V2 as Apple does: `POST {"signedPayload": …}` to the app's
/// URL; a response other than HTTP 200…206 is retried after 1, 12, 24, 48 and 72 hours. `timeScale`
/// compresses that schedule for tests (0.001 makes an hour 3.6 seconds). Every attempt is recorded
/// in the notification history.
public final class NotificationSender: Sendable {
    /// Apple's retry schedule, in hours after the previous attempt.
    public static let retryScheduleHours: [Double] = [1, 12, 24, 48, 72]

    let http: HTTPClient
    let timeScale: Double
    let logger: Logger
    /// How long one attempt may take before it counts as timed out.
    let attemptTimeout: TimeAmount
    private let deliveries = Mutex<[UUID: Task<Void, Never>]>([:])

    /// The client the simulator calls developers' servers with. A kept-alive connection is given up after
    /// 4 s idle, before the servers it calls close it (Storegate after 15 s, Node.js after 5 s): a request
    /// sent as the server closes the connection meets a reset and counts as a failed attempt, a failed
    /// realtime request in a performance test.
    public static func makeHTTPClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(4))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    public init(
        http: HTTPClient, timeScale: Double = 1, attemptTimeout: TimeAmount = .seconds(30), logger: Logger = Logger(label: "storegate.simulator.notifications")
    ) {
        self.http = http
        self.attemptTimeout = attemptTimeout
        self.timeScale = timeScale
        self.logger = logger
    }

    /// Starts delivering `signed` to `url`; attempts are reported to `record` as they happen.
    func deliver(_ signed: String, to url: String, record: @escaping @Sendable (SendAttemptItem) async -> Void) {
        let id = UUID()
        let task = Task { [http, timeScale, logger, attemptTimeout] in
            for attempt in 0...Self.retryScheduleHours.count {
                if attempt > 0 {
                    let hours = Self.retryScheduleHours[attempt - 1]
                    try? await Task.sleep(for: .milliseconds(Int64(hours * 3_600_000 * timeScale)))
                    if Task.isCancelled { return }
                }
                let result = await Self.post(signed, to: url, http: http, timeout: attemptTimeout)
                await record(SendAttemptItem(attemptDate: Timestamp(Date()), sendAttemptResult: result))
                logger.debug("notification attempt", metadata: ["result": "\(result.rawValue)", "attempt": "\(attempt + 1)"])
                if result == .success { return }
            }
        }
        deliveries.withLock { $0[id] = task }
    }

    static func post(_ signed: String, to url: String, http: HTTPClient, timeout: TimeAmount) async -> SendAttemptResult {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        let body = (try? JSONEncoder().encode(ResponseBodyV2(signedPayload: signed))) ?? Data()
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await http.execute(request, timeout: timeout)
            _ = try? await response.body.collect(upTo: 1 << 16)
            return (200...206).contains(Int(response.status.code)) ? .success : .unsuccessfulHttpResponseCode
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            return .timedOut
        } catch {
            return .noResponse
        }
    }

    /// Stops every pending delivery.
    public func shutdown() {
        let tasks = deliveries.withLock { deliveries in
            defer { deliveries.removeAll() }
            return Array(deliveries.values)
        }
        for task in tasks { task.cancel() }
    }
}
