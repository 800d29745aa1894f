import Foundation

/// `PerformanceTestResponseTimes`, as Apple defines it.
public struct PerformanceTestResponseTimes: Codable, Hashable, Sendable {
    /// Average response time in milliseconds.
    public var average: Int64
    /// The 50th percentile response time in milliseconds.
    public var p50: Int64
    /// The 90th percentile response time in milliseconds.
    public var p90: Int64
    /// The 95th percentile response time in milliseconds.
    public var p95: Int64
    /// The 99th percentile response time in milliseconds.
    public var p99: Int64

    public init(average: Int64, p50: Int64, p90: Int64, p95: Int64, p99: Int64) {
        self.average = average
        self.p50 = p50
        self.p90 = p90
        self.p95 = p95
        self.p99 = p99
    }
}
