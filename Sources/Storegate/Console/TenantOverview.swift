import Foundation

/// A tenant at a glance, for the console: its last days in figures and the state of its reconciliation
/// sweeps.
public struct TenantOverview: Sendable {
    public let days: [DailyFigures]
    public let sweeps: [NotificationSweep]
}

extension Capabilities {
    /// The last `days` days (UTC, today included) and every app's sweeps, read in one unit of work.
    public func overview(tenant: Tenant, days: Int = 30) async throws -> TenantOverview {
        try await persistence.inTenant(tenant, .read) { unit in
            TenantOverview(days: try await unit.figures.daily(days: days), sweeps: try await unit.sweeps.list())
        }
    }
}
