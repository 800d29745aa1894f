import AppStoreServer
import Foundation

/// What the scheduled sweeps of Apple's notification history did for one app in one environment.
public struct NotificationSweep: Sendable, Equatable {
    public let appId: UUID
    public let environment: AppStoreEnvironment
    /// How far the sweeps have looked: the next one starts here, less an overlap.
    public let sweptUntil: Date
    public let lastRunAt: Date
    public let runs: Int64
    /// Notifications Apple listed as not delivered.
    public let found: Int64
    /// Of those, ones Storegate did not have and stored (and so applies).
    public let applied: Int64
    /// Ones that failed verification, and sweeps that failed.
    public let failed: Int64
    public let lastError: String?

    public init(
        appId: UUID, environment: AppStoreEnvironment, sweptUntil: Date, lastRunAt: Date, runs: Int64, found: Int64, applied: Int64, failed: Int64,
        lastError: String?
    ) {
        self.appId = appId
        self.environment = environment
        self.sweptUntil = sweptUntil
        self.lastRunAt = lastRunAt
        self.runs = runs
        self.found = found
        self.applied = applied
        self.failed = failed
        self.lastError = lastError
    }
}
