import Foundation

/// `PerformanceTestRequest`, as Apple defines it.
public struct PerformanceTestRequest: Codable, Hashable, Sendable {
    /// The original transaction identifier of an In-App Purchase you initiate in the sandbox environment, to use as the purchase for this test.
    public var originalTransactionId: String

    public init(originalTransactionId: String) {
        self.originalTransactionId = originalTransactionId
    }
}
