import Foundation

/// A tenant at a glance, for the console: the state of its reconciliation sweeps (its figures are
/// `MetricsService`'s).
public struct TenantOverview: Sendable {
    public let sweeps: [NotificationSweep]
}

extension Capabilities {
    /// Every app's sweeps.
    public func overview(tenant: Tenant) async throws -> TenantOverview {
        try await persistence.inTenant(tenant, .read) { unit in TenantOverview(sweeps: try await unit.sweeps.list()) }
    }
}
