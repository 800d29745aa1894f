import AppStoreServer
import Foundation
import Logging

/// How Storegate reconciles with Apple by itself, with no call: what a process was never told.
public struct ReconciliationSettings: Sendable {
    /// How often each app's notification history is swept, in each of its environments; nil: never.
    public var sweepEvery: Duration?
    /// How far back an app's first sweep looks.
    public var firstSweep: Duration
    /// How far before where the last sweep ended the next one starts (a delivery Apple records late).
    public var overlap: Duration
    /// How long after a subscription's expiry, with no renewal heard of, Apple is asked for its status.
    public var renewalCheckAfter: Duration
    /// Told of each sweep and renewal check (for metrics): what it found, applied and failed on.
    public var observe: @Sendable (Reconciliation.Run) -> Void

    public init(
        sweepEvery: Duration? = .seconds(15 * 60), firstSweep: Duration = .seconds(24 * 3600), overlap: Duration = .seconds(10 * 60),
        renewalCheckAfter: Duration = .seconds(5 * 60), observe: @escaping @Sendable (Reconciliation.Run) -> Void = { _ in }
    ) {
        self.sweepEvery = sweepEvery
        self.firstSweep = firstSweep
        self.overlap = overlap
        self.renewalCheckAfter = renewalCheckAfter
        self.observe = observe
    }

    /// How often the tenant's apps are swept: its manifest's `sweepMinutes` (0: never), else the server's.
    public func sweepEvery(for tenant: Tenant) -> Duration? {
        guard let minutes = tenant.reconciliation.sweepMinutes else { return sweepEvery }
        return minutes == 0 ? nil : .seconds(minutes * 60)
    }

    /// Where a sweep starts: a little before the last one ended (`overlap`: a delivery Apple records late),
    /// `firstSweep` back for an app never swept, and never before the 179 days Apple's history keeps.
    public func sweepStart(lastSweptUntil: Date?, now: Date) -> Date {
        let oldest = now.addingTimeInterval(-179 * 86_400)
        return max(lastSweptUntil.map { $0.addingTimeInterval(-overlap.timeInterval) } ?? now.addingTimeInterval(-firstSweep.timeInterval), oldest)
    }

    /// How far a sweep counts as done: to now; a failed one leaves the last end (or its start) for the next.
    public static func sweptUntil(failed: Bool, lastSweptUntil: Date?, start: Date, now: Date) -> Date {
        failed ? lastSweptUntil ?? start : now
    }

    /// How long after an expiry the tenant's subscriptions are checked: its manifest's, else the server's.
    public func renewalCheckAfter(for tenant: Tenant) -> Duration {
        tenant.reconciliation.renewalCheckMinutes.map { .seconds($0 * 60) } ?? renewalCheckAfter
    }
}

/// Reconciliation as durable jobs, per app and environment (the job worker adds the sweeps of apps that
/// have none as it starts, and again every `sweepEvery`): a sweep of Apple's notification history for
/// the deliveries that failed (`onlyFailures`) since the last sweep, every `sweepEvery`; and, a while
/// after a subscription's expiry with no renewal heard of, a status check with Apple (the double check
/// Apple advises: a late `DID_RENEW` must not leave a paying customer without access). What a sweep finds
/// is stored as if it had arrived, so it is applied once, as every notification is (a refund becomes one
/// outcome and one event).
public struct Reconciliation: Sendable {
    let persistence: any Persistence
    let ingest: NotificationIngest
    let subscriptions: SubscriptionService
    let settings: ReconciliationSettings
    let logger: Logger

    /// What one sweep or check did.
    public struct Run: Sendable {
        public enum Kind: String, Sendable {
            case sweep
            case renewalCheck = "renewal_check"
        }
        public let kind: Kind
        public let found: Int
        public let applied: Int
        public let failed: Int
    }

    static func sweepRef(appId: UUID, environment: AppStoreEnvironment) -> String { "\(appId.uuidString.lowercased())/\(environment.rawValue)" }
    static func renewalRef(appId: UUID, originalTransactionId: String) -> String { "\(appId.uuidString.lowercased())/\(originalTransactionId)" }

    private static func split(_ ref: String) -> (UUID, String)? {
        let parts = ref.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, let id = UUID(uuidString: parts[0]) else { return nil }
        return (id, parts[1])
    }

    /// Sweeps the app's notification history in one environment; returns when to sweep again, nil when
    /// the app (or the environment) is gone. A failed sweep is recorded and the window kept for the next.
    func sweep(tenant: Tenant, ref: String, now: Date = Date()) async throws -> Date? {
        guard let every = settings.sweepEvery(for: tenant), let (appId, name) = Self.split(ref) else { return nil }
        let environment = AppStoreEnvironment(rawValue: name)
        let (app, last) = try await persistence.inTenant(tenant, .read) { unit in
            (try await unit.apps.find(id: appId), try await unit.sweeps.find(appId: appId, environment: environment))
        }
        guard let app, app.environments.contains(environment) else { return nil }
        let start = settings.sweepStart(lastSweptUntil: last?.sweptUntil, now: now)
        var report = NotificationIngest.BackfillReport()
        var failure: String?
        do {
            report = try await ingest.ingestHistory(
                tenant: tenant, app: app, environment: environment,
                request: NotificationHistoryRequest(startDate: Timestamp(start), endDate: Timestamp(now), onlyFailures: true))
        } catch {
            failure = "\(error)"
            logger.warning(
                "sweep of Apple's notification history failed; the next sweep covers the same window",
                metadata: [
                    "tenant": .string(tenant.slug), "bundleId": .string(app.bundleId), "environment": .string(environment.rawValue),
                    "error": .string("\(error)"),
                ])
        }
        let until = ReconciliationSettings.sweptUntil(failed: failure != nil, lastSweptUntil: last?.sweptUntil, start: start, now: now)
        try await persistence.inTenant(tenant, .read) { unit in
            try await unit.sweeps.record(appId: appId, environment: environment, until: until, report: report, error: failure)
        }
        settings.observe(Run(kind: .sweep, found: report.seen, applied: report.stored, failed: report.rejected + (failure == nil ? 0 : 1)))
        return RecurringPhase.next(after: now, every: every.timeInterval, key: ref)
    }

    /// Checks a subscription whose expiry passed `renewalCheckAfter` ago with no renewal heard of: Apple's
    /// status is read and stored (a renewal that was missed shows up). Returns when to look again (the
    /// next expiry), nil when there is nothing to watch (not renewing, gone, or expired at Apple too).
    func checkRenewal(tenant: Tenant, ref: String, now: Date = Date()) async throws -> Date? {
        guard let (appId, originalTransactionId) = Self.split(ref) else { return nil }
        func watched() async throws -> (App?, Subscription?) {
            try await persistence.inTenant(tenant, .read) { unit in
                (try await unit.apps.find(id: appId), try await unit.subscriptions.list(appId: appId, originalTransactionId: originalTransactionId).first)
            }
        }
        let (app, before) = try await watched()
        guard let app, let before, let expires = before.expiresDate, before.autoRenewStatus != false,
            [Status.active, .billingGracePeriod].contains(before.status)
        else { return nil }
        let wait = settings.renewalCheckAfter(for: tenant).timeInterval
        let due = expires.addingTimeInterval(wait)
        guard now >= due else { return due }
        _ = try await subscriptions.refresh(
            tenant: tenant, app: app, anyTransactionId: originalTransactionId, environment: before.environment, customer: before.customer)
        let after = try await watched().1
        let renewed = (after?.expiresDate ?? expires) > expires
        settings.observe(Run(kind: .renewalCheck, found: renewed ? 1 : 0, applied: renewed ? 1 : 0, failed: 0))
        guard renewed, let next = after?.expiresDate else { return nil }
        return next.addingTimeInterval(wait)
    }
}

extension Duration {
    var timeInterval: TimeInterval { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
