import Foundation
import Testing

@testable import Storegate

/// The windows of reconciliation: where a sweep of Apple's notification history starts and ends, and how
/// often a tenant's apps are swept and its renewals checked. Values and a clock only.
@Suite struct ReconciliationRuleTests {
    let now = Subscriptions.now
    let settings = ReconciliationSettings()

    func tenant(sweepMinutes: Int? = nil, renewalCheckMinutes: Int? = nil) -> Tenant {
        Tenant(
            id: UUID(), slug: "t", name: "T", storageName: "t_x", status: .active, schemaVersion: 1, createdAt: now,
            reconciliation: Tenant.Reconciliation(sweepMinutes: sweepMinutes, renewalCheckMinutes: renewalCheckMinutes))
    }

    @Test func aFirstSweepLooksADayBack() {
        #expect(settings.sweepStart(lastSweptUntil: nil, now: now) == now - 24 * 3600)
    }

    @Test func theNextSweepOverlapsTheLastByTenMinutes() {
        #expect(settings.sweepStart(lastSweptUntil: now - 900, now: now) == now - 900 - 600)
    }

    @Test func noSweepLooksPastAppleS180Days() {
        #expect(settings.sweepStart(lastSweptUntil: now - 400 * 86_400, now: now) == now - 179 * 86_400)
        var long = ReconciliationSettings()
        long.firstSweep = .seconds(365 * 86_400)
        #expect(long.sweepStart(lastSweptUntil: nil, now: now) == now - 179 * 86_400)
    }

    @Test func aFailedSweepLeavesItsWindowForTheNext() {
        #expect(ReconciliationSettings.sweptUntil(failed: false, lastSweptUntil: now - 900, start: now - 1500, now: now) == now)
        #expect(ReconciliationSettings.sweptUntil(failed: true, lastSweptUntil: now - 900, start: now - 1500, now: now) == now - 900)
        #expect(ReconciliationSettings.sweptUntil(failed: true, lastSweptUntil: nil, start: now - 86_400, now: now) == now - 86_400)
    }

    @Test func aTenantsManifestSetsItsOwnSweepsAndChecks() {
        #expect(settings.sweepEvery(for: tenant()) == .seconds(15 * 60))
        #expect(settings.sweepEvery(for: tenant(sweepMinutes: 5)) == .seconds(300))
        #expect(settings.sweepEvery(for: tenant(sweepMinutes: 0)) == nil, "0: never")
        #expect(settings.renewalCheckAfter(for: tenant()) == .seconds(300))
        #expect(settings.renewalCheckAfter(for: tenant(renewalCheckMinutes: 30)) == .seconds(1800))
    }
}
