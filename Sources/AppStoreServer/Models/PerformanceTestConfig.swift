import Foundation

/// `PerformanceTestConfig`, as Apple defines it.
public struct PerformanceTestConfig: Codable, Hashable, Sendable {
    /// The maximum number of concurrent requests the API allows.
    public var maxConcurrentRequests: Int64
    /// The total number of requests to make during the test.
    public var totalRequests: Int64
    /// The total duration of the test in milliseconds.
    public var totalDuration: Int64
    /// The maximum time your server has to respond when the system calls your Get Retention Message endpoint in the sandbox environment.
    public var responseTimeThreshold: Int64
    /// The success rate threshold percentage.
    public var successRateThreshold: Int32

    public init(maxConcurrentRequests: Int64, totalRequests: Int64, totalDuration: Int64, responseTimeThreshold: Int64, successRateThreshold: Int32) {
        self.maxConcurrentRequests = maxConcurrentRequests
        self.totalRequests = totalRequests
        self.totalDuration = totalDuration
        self.responseTimeThreshold = responseTimeThreshold
        self.successRateThreshold = successRateThreshold
    }
}
