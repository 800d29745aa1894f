import Foundation

/// `PerformanceTestResponse`, as Apple defines it.
public struct PerformanceTestResponse: Codable, Hashable, Sendable {
    /// The performance test configuration object.
    public var config: PerformanceTestConfig
    /// The performance test request identifier.
    public var requestId: String

    public init(config: PerformanceTestConfig, requestId: String) {
        self.config = config
        self.requestId = requestId
    }
}
