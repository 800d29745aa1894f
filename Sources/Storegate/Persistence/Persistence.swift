import AppStoreServer
import Foundation
import KeyVault

/// Everything Storegate keeps, behind units of work. The domain decides; a unit stores and reads.
/// `StoregatePostgres` implements it over PostgreSQL (the control schema and one schema per tenant).
/// Each store's protocol lives with its capability (`Refunds/RefundStore.swift`, …); this file holds the
/// units that hand the stores out.
///
/// A `.write` unit is one transaction: everything in it is committed together or not at all. A `.read`
/// unit runs each statement on its own, on one connection, without the round trips of a transaction.
public protocol Persistence: Sendable {
    /// Work on the data that spans tenants: tenants, API keys by prefix, notification URLs by token, the job queue.
    func control<T: Sendable>(_ access: UnitAccess, _ body: (any ControlUnit) async throws -> T) async throws -> T
    /// Work inside one tenant: its apps, keys and audit entries, and its own data.
    func inTenant<T: Sendable>(_ tenant: Tenant, _ access: UnitAccess, _ body: (any TenantUnit) async throws -> T) async throws -> T
    /// Whether every schema is at the version this build expects (for readiness).
    func isCurrent() async throws -> Bool
    /// Hears what any process commits that cached values are loaded from (a tenant's status, its API
    /// keys, apps, app keys and notification URLs; a customer's holdings): calls `listening` once changes are
    /// heard, then `changed` with each change as it commits, until the task is cancelled or the
    /// connection is lost (thrown).
    func followChanges(listening: @Sendable () -> Void, changed: @Sendable (CacheChange) -> Void) async throws
    /// Tells `observer`, in this process, of each tenant unit's writes to customers' holdings: `.writing`
    /// as soon as the unit wrote a customer's holdings (before it commits), `.settled` once the unit is
    /// over, committed or rolled back, before it returns (so a caller reads its own writes). A tenant unit
    /// records the customers itself as it writes subscriptions, transactions and account links, and
    /// announces them to the other processes in the same transaction.
    func observeHoldingsWrites(_ observer: @escaping @Sendable (HoldingsWrite) -> Void)
    /// Sets the step every tenant unit of work ends with when it wrote customers' holdings (the customers
    /// `observeHoldingsWrites` hears of): called with the unit and those customers once the unit's own work
    /// is done, before they are announced; in a `.write` unit inside its transaction, so what the step
    /// writes commits with the unit's writes or not at all. The domain's `entitlements.changed`. One step:
    /// setting another replaces it.
    func endUnitsThatWriteHoldings(with step: @escaping @Sendable (any TenantUnit, Set<UUID>) async throws -> Void)
}
/// A tenant unit of work's writes to a customer's holdings, as this process hears them. Between
/// `.writing` and `.settled` the customer's holdings may change at any moment (at the commit, or at
/// once for a `.read` unit's statement), so a cache neither serves nor keeps them: a reader that learns
/// of the commit another way (a row it polls) must not be served what was there before.
public enum HoldingsWrite: Sendable, Hashable {
    case writing(tenant: UUID, customer: UUID)
    case settled(tenant: UUID, customers: Set<UUID>)
}
/// What a cached value was loaded from changed.
public enum CacheChange: Sendable, Hashable {
    /// The tenant itself, its API keys, apps, app keys or notification URLs.
    case tenant(UUID)
    /// A customer's holdings: their subscriptions, purchases or account links.
    case holdings(tenant: UUID, customer: UUID)
}
public enum UnitAccess: Sendable {
    /// Each statement on its own; for reads and single writes.
    case read
    /// One transaction.
    case write
    /// One transaction that creates or drops a tenant's schema: many DDL statements (a new schema runs
    /// every tenant migration) that may wait on catalog locks, so it is allowed the longer
    /// schema-change deadline rather than a request's.
    case schemaChange
    /// One transaction an operator starts over a tenant's whole history (`storegate metrics rebuild`):
    /// allowed the rebuild deadline (an hour), on a schema change's connection.
    case rebuild
}
/// A write broke a uniqueness rule (another row has the same key).
public struct UniqueViolation: Error, Sendable {
    public let constraint: String
    public init(constraint: String) { self.constraint = constraint }
}
extension Persistence {
    public func control<T: Sendable>(_ body: (any ControlUnit) async throws -> T) async throws -> T { try await control(.write, body) }
    public func inTenant<T: Sendable>(_ tenant: Tenant, _ body: (any TenantUnit) async throws -> T) async throws -> T {
        try await inTenant(tenant, .write, body)
    }

    /// A write in which a uniqueness violation means `field` names something that already exists.
    func control<T: Sendable>(
        _ access: UnitAccess = .write, conflictField field: String, _ body: (any ControlUnit) async throws -> T
    ) async throws -> T {
        do { return try await control(access, body) } catch is UniqueViolation { throw StoregateError.conflict(field: field, reason: "already exists") }
    }

    func inTenant<T: Sendable>(_ tenant: Tenant, conflictField field: String, _ body: (any TenantUnit) async throws -> T) async throws -> T {
        do { return try await inTenant(tenant, .write, body) } catch is UniqueViolation {
            throw StoregateError.conflict(field: field, reason: "already exists")
        }
    }
}
// MARK: Units

/// Data that spans tenants.
public protocol ControlUnit: Sendable {
    var tenants: any TenantRegistry { get }
    /// API keys by their visible prefix, for authentication.
    var apiKeys: any APIKeyLookup { get }
    /// The notification URL with this token, with its app and tenant.
    func notificationURL(token: String) async throws -> (notificationURL: NotificationURL, app: App, tenant: Tenant)?
    /// Sealed keys across tenants, for master-key rotation.
    var sealedKeys: any SealedKeyRewrap { get }
    var jobs: any JobQueue { get }
    /// Notifications acknowledged to Apple, waiting to be taken into their tenant's data.
    var inbox: any NotificationInbox { get }
    /// The console's people, their sessions and sign-in links.
    var console: any ConsoleStore { get }
    /// Exchange rates the operator loaded, for metrics in one currency.
    var exchangeRates: any ExchangeRateStore { get }
    /// Appends audit entries in order.
    func audit(_ entries: [NewAuditEntry]) async throws
    /// The same unit of work, scoped to one tenant.
    func inTenant(_ tenant: Tenant) throws -> any TenantUnit
}
/// Work inside one tenant. Every store is scoped to `tenant`: another tenant's data is never in reach.
public protocol TenantUnit: Sendable {
    var tenant: Tenant { get }
    var apps: any AppRegistry { get }
    var apiKeys: any APIKeyStore { get }
    var customers: any CustomerStore { get }
    /// Customers' attributes and support notes.
    var customerProfiles: any CustomerProfileStore { get }
    /// A customer's erasure (`customers.delete`).
    var customerErasure: any CustomerErasureStore { get }
    /// Everything the tenant's schema holds about one customer (`customers.export`).
    var customerExports: any CustomerExportStore { get }
    var transactions: any TransactionStore { get }
    var subscriptions: any SubscriptionStore { get }
    var notifications: any NotificationStore { get }
    var refunds: any RefundStore { get }
    var extensions: any RenewalExtensionStore { get }
    var appTransactions: any AppTransactionStore { get }
    var externalPurchaseTokens: any ExternalPurchaseTokenStore { get }
    var events: any EventStore { get }
    var grants: any GrantStore { get }
    /// The entitlement names last evented per customer, and what their new ones are worked out from.
    var entitlementsEvented: any EntitlementsEventedStore { get }
    var catalog: any CatalogStore { get }
    /// Daily figures rolled up from lifecycle events (`metrics.get`).
    var metrics: any MetricsStore { get }
    /// Pages of transactions, events and subscriptions for exports.
    var exports: any ExportStore { get }
    var sweeps: any NotificationSweepStore { get }
    var webhookEndpoints: any WebhookEndpointStore { get }
    var webhookDeliveries: any WebhookDeliveryStore { get }
    /// What the data-retention job deletes, a batch at a time.
    var dataRetention: any DataRetentionStore { get }
    /// Adds a job for this tenant, or moves an existing one earlier (never later) when `due` is sooner.
    func enqueue(_ kind: Job.Kind, ref: String, due: Date) async throws
    /// Completes the jobs of this kind with these refs, where there are any.
    func completeJobs(_ kind: Job.Kind, refs: [String]) async throws
    func audit(_ actor: Actor, _ action: String, _ detail: [String: String]) async throws
    func auditLog() async throws -> [AuditEntry]
    /// The tenant's audit entries a page at a time, newest first (`audit.list`, the console's audit page).
    var auditEntries: any AuditStore { get }
    /// Every table of the tenant's own data as JSON arrays of rows, by table name, for export; its
    /// notifications waiting in the inbox as `notification_inbox`.
    func exportTables() async throws -> [(name: String, rows: String)]
}
