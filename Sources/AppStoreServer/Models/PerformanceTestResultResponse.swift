import Foundation

/// `PerformanceTestResultResponse`, as Apple defines it.
public struct PerformanceTestResultResponse: Codable, Hashable, Sendable {
    /// A PerformanceTestConfig object that enumerates the test parameters.
    public var config: PerformanceTestConfig
    /// The target URL for the performance test.
    public var target: String
    /// A PerformanceTestStatus object that describes the overall result of the test.
    public var result: PerformanceTestStatus?
    /// An integer that describes he success rate percentage of the performance test.
    public var successRate: Int32
    /// An integer that describes the number of pending requests in the performance test.
    public var numPending: Int32
    /// A PerformanceTestResponseTimes object that enumerates the response times measured during the test.
    public var responseTimes: PerformanceTestResponseTimes
    /// A map of server-to-server notification failure reasons and counts that represent the number of failures encountered during the performance test.
    public var failures: [String: Int32]?

    public init(
        config: PerformanceTestConfig, target: String, result: PerformanceTestStatus? = nil, successRate: Int32, numPending: Int32,
        responseTimes: PerformanceTestResponseTimes, failures: [String: Int32]? = nil
    ) {
        self.config = config
        self.target = target
        self.result = result
        self.successRate = successRate
        self.numPending = numPending
        self.responseTimes = responseTimes
        self.failures = failures
    }
}
