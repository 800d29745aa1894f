import AppStoreServer
import Foundation
import KeyVault

/// Everything Storegate keeps, behind units of work. The domain decides; a unit stores and reads.
/// `StoregatePostgres` implements it over PostgreSQL (the control schema and one schema per tenant).
///
/// A `.write` unit is one transaction: everything in it is committed together or not at all. A `.read`
/// unit runs each statement on its own, on one connection, without the round trips of a transaction.
public protocol Persistence: Sendable {
    /// Work on the data that spans tenants: tenants, API keys by prefix, webhooks by token, the job queue.
    func control<T: Sendable>(_ access: UnitAccess, _ body: (any ControlUnit) async throws -> T) async throws -> T
    /// Work inside one tenant: its apps, keys and audit entries, and its own data.
    func inTenant<T: Sendable>(_ tenant: Tenant, _ access: UnitAccess, _ body: (any TenantUnit) async throws -> T) async throws -> T
    /// Whether every schema is at the version this build expects (for readiness).
    func isCurrent() async throws -> Bool
    /// Hears what any process commits that cached values are loaded from (a tenant's status, its API
    /// keys, apps, app keys and webhooks; a customer's holdings): calls `listening` once changes are
    /// heard, then `changed` with each change as it commits, until the task is cancelled or the
    /// connection is lost (thrown).
    func followChanges(listening: @Sendable () -> Void, changed: @Sendable (CacheChange) -> Void) async throws
    /// Tells `observer`, in this process, of each tenant unit's writes to customers' holdings: `.writing`
    /// as soon as the unit wrote a customer's holdings (before it commits), `.settled` once the unit is
    /// over, committed or rolled back, before it returns (so a caller reads its own writes). A tenant unit
    /// records the customers itself as it writes subscriptions, transactions and account links, and
    /// announces them to the other processes in the same transaction.
    func observeHoldingsWrites(_ observer: @escaping @Sendable (HoldingsWrite) -> Void)
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
    /// The tenant itself, its API keys, apps, app keys or webhooks.
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
    /// The webhook with this token, with its app and tenant.
    func webhook(token: String) async throws -> (webhook: Webhook, app: App, tenant: Tenant)?
    /// Sealed keys across tenants, for master-key rotation.
    var sealedKeys: any SealedKeyRewrap { get }
    var jobs: any JobQueue { get }
    /// Notifications acknowledged to Apple, waiting to be taken into their tenant's data.
    var inbox: any NotificationInbox { get }
    /// The console's people, their sessions and sign-in links.
    var console: any ConsoleStore { get }
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
    var transactions: any TransactionStore { get }
    var subscriptions: any SubscriptionStore { get }
    var notifications: any NotificationStore { get }
    var refunds: any RefundStore { get }
    var extensions: any RenewalExtensionStore { get }
    var appTransactions: any AppTransactionStore { get }
    var externalPurchaseTokens: any ExternalPurchaseTokenStore { get }
    var events: any EventStore { get }
    var grants: any GrantStore { get }
    var sweeps: any NotificationSweepStore { get }
    /// Figures per day for the console's overview.
    var figures: any DailyFiguresStore { get }
    var webhookEndpoints: any WebhookEndpointStore { get }
    var webhookDeliveries: any WebhookDeliveryStore { get }
    /// Adds a job for this tenant, or moves an existing one earlier (never later) when `due` is sooner.
    func enqueue(_ kind: Job.Kind, ref: String, due: Date) async throws
    /// Completes the jobs of this kind with these refs, where there are any.
    func completeJobs(_ kind: Job.Kind, refs: [String]) async throws
    func audit(_ actor: Actor, _ action: String, _ detail: [String: String]) async throws
    func auditLog() async throws -> [AuditEntry]
    /// Every table of the tenant's own data as JSON arrays of rows, by table name, for export; its
    /// notifications waiting in the inbox as `notification_inbox`.
    func exportTables() async throws -> [(name: String, rows: String)]
}

// MARK: Control stores

public protocol TenantRegistry: Sendable {
    /// Creates the tenant and its storage, at the latest schema version.
    func create(slug: String, name: String) async throws -> Tenant
    func find(slug: String, forUpdate: Bool) async throws -> Tenant?
    func find(id: UUID) async throws -> Tenant?
    func list() async throws -> [Tenant]
    func rename(_ tenant: Tenant, to name: String) async throws
    func setReconciliation(_ tenant: Tenant, _ reconciliation: Tenant.Reconciliation) async throws
    func setStatus(_ tenant: Tenant, _ status: Tenant.Status) async throws
    /// Drops the tenant's storage and its rows (apps, keys, API keys go with it); returns the ids of the keys destroyed.
    func delete(_ tenant: Tenant) async throws -> [UUID]
}

public protocol APIKeyLookup: Sendable {
    /// The key with this prefix and the hash of its secret; revoked keys too, so the caller can tell.
    func find(prefix: String) async throws -> (key: APIKey, secretHash: Data)?
    func touch(id: UUID) async throws
}

public protocol SealedKeyRewrap: Sendable {
    /// Keys not sealed with `masterKeyId`, locked for re-wrapping, a batch at a time.
    func sealedWithOther(than masterKeyId: String, limit: Int) async throws -> [(key: AppKey, sealed: SealedKey)]
    func replaceSealed(keyId: UUID, _ sealed: SealedKey) async throws
    /// Webhook signing secrets not sealed with `masterKeyId`, locked, a batch at a time.
    func webhookSecretsSealedWithOther(than masterKeyId: String, limit: Int) async throws -> [(tenantId: UUID, secret: SealedWebhookSecret)]
    func replaceSealed(webhookSecretId: UUID, _ sealed: SealedKey) async throws
}

/// The durable job queue. Claimed jobs are leased to a worker, which renews the lease while it runs
/// them: a worker that dies leaves them to be claimed again once the lease runs out.
public protocol JobQueue: Sendable {
    func claim(limit: Int, lease: Duration, worker: UUID) async throws -> [Job]
    /// Pushes the lease of the jobs `worker` still holds `lease` into the future.
    func renew(_ ids: [Int64], worker: UUID, lease: Duration) async throws
    /// Hands back jobs `worker` holds but will not finish, due at once.
    func release(_ ids: [Int64], worker: UUID) async throws
    func complete(_ job: Job) async throws
    func retry(_ job: Job, at due: Date, error: String) async throws
    /// Makes a recurring job due again at `due`, its attempts and error cleared.
    func reschedule(_ job: Job, at due: Date) async throws
    /// Adds the notification sweep of every app in each of its environments that has none, due at once:
    /// of active tenants whose `sweepMinutes` is above 0, or unset when `byDefault`.
    func scheduleNotificationSweeps(byDefault: Bool) async throws -> Int
}

// MARK: Tenant stores

/// The tenant's apps, with their App Store Connect keys and webhook tokens.
public protocol AppRegistry: Sendable {
    func insert(_ app: App) async throws
    func update(_ app: App) async throws
    func delete(_ app: App) async throws
    func find(bundleId: String) async throws -> App?
    func find(id: UUID) async throws -> App?
    func list() async throws -> [App]
    /// The app with this bundle ID and its newest key (or the key with `keyId`), in one read.
    func signingKey(bundleId: String, keyId: String?) async throws -> (app: App, key: AppKey?)?
    func keys(appId: UUID?) async throws -> [AppKey]
    func insertKey(_ key: AppKey, sealed: SealedKey) async throws
    func sealedKey(id: UUID) async throws -> SealedKey?
    /// Adds the webhook unless the app has one for its environment.
    func insertWebhook(_ webhook: Webhook) async throws
    func webhooks(appId: UUID) async throws -> [Webhook]
    /// The app's retention rules; nil when none were set.
    func retentionRules(appId: UUID) async throws -> [RetentionRule]?
    /// Replaces the app's retention rules (nil removes them); false when the tenant has no such app.
    func setRetentionRules(appId: UUID, _ rules: [RetentionRule]?) async throws -> Bool
}

public protocol APIKeyStore: Sendable {
    func insert(id: UUID, prefix: String, secretHash: Data, label: String) async throws
    func list() async throws -> [APIKey]
    /// Revokes the key with this prefix; false when there is none not yet revoked.
    func revoke(prefix: String) async throws -> Bool
}

public protocol CustomerStore: Sendable {
    /// The customer with this id, created with a fresh appAccountToken on first use.
    func ensure(customerId: String) async throws -> (customer: Customer, created: Bool)
    func find(id: UUID) async throws -> Customer?
    func find(customerId: String) async throws -> Customer?
    func find(appAccountToken: UUID) async throws -> Customer?
    /// The customer's subscriptions (and, with `purchases`, other purchases) in one round trip; nil when
    /// there is no such customer.
    func holdings(customerId: String, purchases: Bool) async throws -> Holdings?
    /// The link of an identifier, locked for the unit of work.
    func link(appId: UUID, kind: AccountLink.Kind, value: String) async throws -> AccountLink?
    func links(customer: UUID) async throws -> [AccountLink]
    /// Links an identifier to a customer, moving it when it was linked to another.
    func setLink(appId: UUID, kind: AccountLink.Kind, value: String, customer: UUID) async throws
    /// Links an identifier unless it is linked already: links from Apple's data never move one.
    /// Whether it linked (false: the identifier was linked already).
    @discardableResult
    func linkIfUnlinked(appId: UUID, kind: AccountLink.Kind, value: String, customer: UUID) async throws -> Bool
    /// The customer Apple's data belongs to: by the `originalTransactionId` link, the `appAccountToken`, or
    /// the `appTransactionId` link, in that order.
    func owner(appId: UUID, originalTransactionId: String, appAccountToken: UUID?, appTransactionId: String?) async throws -> UUID?
}

public protocol TransactionStore: Sendable {
    /// Stores a transaction; an older signed version never replaces a newer one. Returns whether it was
    /// new.
    @discardableResult func upsert(_ transaction: StoredTransaction) async throws -> Bool
    func facts(appId: UUID, transactionId: String) async throws -> TransactionFacts?
    /// A customer's purchases other than auto-renewable subscriptions.
    func oneTimePurchases(customer: UUID) async throws -> [OneTimePurchase]
    /// Notes the order ID (from Apple's Look Up Order ID) on these stored transactions of the app.
    func setOrder(appId: UUID, orderId: String, transactionIds: [String]) async throws
    /// The customer of an order's transactions (stored with them, or linked by their
    /// `originalTransactionId`); of one app when given.
    func customer(orderId: String, appId: UUID?) async throws -> UUID?
}

public protocol SubscriptionStore: Sendable {
    /// Stores what Apple signed unless newer data is stored; returns what it changed, nil when it did not
    /// apply. The previous state is the one committed when the statement started.
    @discardableResult func upsert(_ subscription: Subscription) async throws -> SubscriptionChange?
    /// Moves the expiry after a renewal-date extension (never earlier).
    func extend(appId: UUID, originalTransactionId: String, to date: Date) async throws
    /// The customer's subscriptions: stored with the customer or linked to them by `originalTransactionId`.
    func list(customer: UUID) async throws -> [Subscription]
    func list(appId: UUID, originalTransactionId: String) async throws -> [Subscription]
    /// What retention rules ask of the subscription beyond its state; `customer` is its customer, when linked.
    func retentionFacts(appId: UUID, environment: AppStoreEnvironment, originalTransactionId: String, customer: UUID?) async throws -> RetentionFacts
}

/// Where notifications from Apple's webhook wait, across tenants, from their acknowledgement until their
/// tenant's processing job takes them in (`NotificationStore.admit`). Every notification in it has its
/// `processNotification` job: a job is completed only in a transaction that takes its notification in.
public protocol NotificationInbox: Sendable {
    /// Puts a notification for `tenantId` in the inbox unless it is waiting there already, and with it (in
    /// the same statement) its `processNotification` job due at `due`; returns whether it was new. One found
    /// there is written again (unchanged): a duplicate is answered only after a commit that waits for the
    /// synchronous standby, so it cannot be a row the primary recovered as committed after a crash while
    /// the standby never had it (PostgreSQL marks such commits done on restart).
    func receive(_ notification: StoredNotification, tenantId: UUID, processingDue due: Date) async throws -> Bool
}

public protocol NotificationStore: Sendable {
    /// Stores a notification unless one with its UUID is there, and with it (in the same statement) its
    /// `processNotification` job due at `due`; returns whether it was new. One found is written again, as
    /// in `NotificationInbox.receive`, so that "already stored" is known to the standby too.
    func insert(_ notification: StoredNotification, processingDue due: Date) async throws -> Bool
    /// Takes these of the tenant's notifications from the inbox into its own, in one statement; one it
    /// has already (Apple delivered it again) is dropped. Only a processing unit does, holding their jobs'
    /// claims: it takes them in before it locks them, and again once it completed their jobs, so that a
    /// delivery Apple repeated while it ran, whose job it then completed, is dropped rather than left
    /// without a job.
    func admit(_ uuids: [UUID]) async throws
    /// The newest first, those waiting in the inbox included.
    func list(appId: UUID?, limit: Int) async throws -> [StoredNotification]
    /// Of these notifications, the ones not yet processed, in the tenant's data or its inbox, oldest first.
    func unprocessed(_ uuids: [UUID]) async throws -> [StoredNotification]
    /// Locks these notifications for the unit of work; returns the ones not yet processed.
    func lockUnprocessed(_ uuids: [UUID]) async throws -> Set<UUID>
    /// Marks each notification processed, with its error if any.
    func markProcessed(_ outcomes: [(notificationUUID: UUID, error: String?)]) async throws
    /// Which of these UUIDs are stored already, in the tenant's data or the inbox.
    func existing(_ uuids: [UUID]) async throws -> Set<UUID>
}

public protocol RefundStore: Sendable {
    /// Records an outcome once: once per notification, and a refund once per transaction and revocation date
    /// however it was found; returns whether it was new.
    @discardableResult func record(_ outcome: RefundOutcome) async throws -> Bool
    /// Outcomes, newest first: of one app, one transaction, one customer, as filtered.
    func outcomes(appId: UUID?, transactionId: String?, customer: UUID?, limit: Int) async throws -> [RefundOutcome]
    /// How many refunds a customer has had (not later reversed).
    func refundCount(customer: UUID) async throws -> Int
    /// Opens a request once per notification; returns whether it was new.
    @discardableResult func open(_ request: RefundRequest) async throws -> Bool
    func request(id: UUID) async throws -> RefundRequest?
    func requests(appId: UUID?, transactionId: String?, status: RefundRequest.Status?, limit: Int) async throws -> [RefundRequest]
    /// A customer's requests in `status` (stored with them, or linked to them since), soonest deadline first.
    func requests(customer: UUID, status: RefundRequest.Status, limit: Int) async throws -> [RefundRequest]
    /// Closes a pending request with its status, reason and what was sent; returns whether it was pending.
    @discardableResult func close(id: UUID, status: RefundRequest.Status, reason: String?, api: ConsumptionAPI?, sentBody: String?) async throws -> Bool
    /// Notes a failed attempt; the request stays pending.
    func failed(id: UUID, error: String) async throws
    func setFacts(appId: UUID, transactionId: String, _ facts: ConsumptionFacts) async throws
    func facts(appId: UUID, transactionId: String) async throws -> ConsumptionFacts?
    func setPolicy(appId: UUID, _ policy: RefundPolicy) async throws
    func policy(appId: UUID) async throws -> RefundPolicy?
}

public protocol RenewalExtensionStore: Sendable {
    /// Records an extension, or updates its environment, date and result.
    func record(_ extension: RenewalExtension) async throws
    /// When the subscription's single extensions that did not fail were asked for, in the last 365 days.
    func recent(appId: UUID, originalTransactionId: String) async throws -> [Date]
    /// Serialises extensions of one subscription for the rest of the unit of work.
    func lock(appId: UUID, originalTransactionId: String) async throws
    /// Records Apple's summary of a mass extension (also one Storegate did not ask for).
    func recordSummary(_ summary: MassExtensionSummary) async throws
    func summary(appId: UUID, requestIdentifier: String) async throws -> MassExtensionSummary?
}

public protocol AppTransactionStore: Sendable {
    /// Stores the app transaction as last signed; a rescinded consent is kept once recorded.
    func upsert(_ appTransaction: StoredAppTransaction) async throws
    /// The app transaction with its linked customer, newest environment first.
    func find(appId: UUID, appTransactionId: String) async throws -> StoredAppTransaction?
    /// The app transactions linked to a customer.
    func list(customer: UUID) async throws -> [StoredAppTransaction]
}

public protocol ExternalPurchaseTokenStore: Sendable {
    /// Records a token once per app and ID; returns whether it was new.
    @discardableResult func record(_ token: ExternalPurchaseTokenRecord) async throws -> Bool
    /// Tokens, newest first.
    func list(appId: UUID?, limit: Int) async throws -> [ExternalPurchaseTokenRecord]
}

/// Access support gave customers for a while. A grant's writes change its customer's holdings.
public protocol GrantStore: Sendable {
    func insert(_ grant: Grant) async throws
    /// Revokes the customer's grant unless it was revoked already; returns it as it is afterwards, nil when
    /// the customer has no such grant.
    func revoke(id: UUID, customer: UUID, by actor: String, reason: String?, at date: Date) async throws -> (grant: Grant, revoked: Bool)?
    /// The customer's grants, newest first: those revoked or expired too when `ended`.
    func list(customer: UUID, ended: Bool) async throws -> [Grant]
}

/// What the scheduled sweeps of Apple's notification history did, per app and environment.
public protocol NotificationSweepStore: Sendable {
    /// The state of the app's sweep in `environment`, nil before the first.
    func find(appId: UUID, environment: AppStoreEnvironment) async throws -> NotificationSweep?
    /// Records a sweep: how far it looked, and what it found, applied and failed on.
    func record(appId: UUID, environment: AppStoreEnvironment, until: Date, report: NotificationIngest.BackfillReport, error: String?) async throws
    func list() async throws -> [NotificationSweep]
}

public protocol EventStore: Sendable {
    /// Appends events to the tenant's outbox, numbered after the last in one statement. The numbering
    /// row stays locked until the unit commits, so each tenant's events are numbered without gaps and in
    /// commit order: append last in a unit of work, to hold that lock briefly.
    func append(_ events: [NewEvent]) async throws
    /// The events after `sequence`, oldest first; of `types` only, when given; of one customer, when given.
    func list(after sequence: Int64, types: [Event.Kind], customer: UUID?, limit: Int) async throws -> [Event]
    /// One customer's events before `sequence` (from the newest when nil), newest first.
    func list(customer: UUID, before sequence: Int64?, limit: Int) async throws -> [Event]
    /// The events with these sequence numbers, oldest first.
    func find(sequences: [Int64]) async throws -> [Event]
}

/// The tenant's webhook endpoints and their sealed signing secrets.
public protocol WebhookEndpointStore: Sendable {
    func insert(_ endpoint: WebhookEndpoint, secret: SealedWebhookSecret) async throws
    /// Replaces the endpoint's URL, description and filters; false when it does not exist.
    func update(_ endpoint: WebhookEndpoint) async throws -> Bool
    /// False when it does not exist.
    func delete(id: UUID) async throws -> Bool
    func find(id: UUID) async throws -> WebhookEndpoint?
    func list() async throws -> [WebhookEndpoint]
    /// The secrets that sign now: the current one, and a rotated one until it expires; newest first.
    func secrets(endpointId: UUID) async throws -> [SealedWebhookSecret]
    /// Makes `secret` the current one; the one it replaces keeps signing until `previousUntil`, and
    /// any older one is removed.
    func rotate(endpointId: UUID, to secret: SealedWebhookSecret, previousUntil: Date) async throws
}

/// Events due at endpoints (written with the events: `EventStore.append`) and the attempts to send them.
public protocol WebhookDeliveryStore: Sendable {
    /// Leases up to `limit` due deliveries of the endpoint, fewer when others are being sent (at most
    /// `limit` are in flight per endpoint across all workers), oldest event first. In a `.write` unit.
    func claim(endpointId: UUID, limit: Int, lease: Duration) async throws -> [DueDelivery]
    /// Records attempts to one endpoint and what follows each: delivered, tried again at `next`, or
    /// dead-lettered (the endpoint then marked failing; a success marks it healthy again). One statement.
    func record(_ results: [DeliveryResult], endpointId: UUID) async throws
    /// Moves the endpoint's delivery job to when its next delivery is due, or removes it when none is,
    /// unless the job was made due again while it ran (events were appended): then it runs again now.
    func settle(_ job: Job, endpointId: UUID) async throws
    /// Deliveries newest first, with their attempts; of one endpoint and/or one status when given;
    /// before a delivery (a cursor), when given.
    func list(endpointId: UUID?, status: WebhookDelivery.Status?, before: UUID?, limit: Int) async throws -> [WebhookDelivery]
    /// Makes one delivery due now (whatever its status), with a fresh retry window; false when unknown.
    func redeliver(id: UUID) async throws -> (endpointId: UUID, found: Bool)
    /// Makes the dead-lettered deliveries of events since `since` due now; of one endpoint when given.
    /// Returns the endpoints touched and how many deliveries.
    func redeliverFailed(endpointId: UUID?, since: Date) async throws -> (endpointIds: [UUID], count: Int)
}

/// The console's people (by tenant), their sessions and one-time sign-in links (kept as hashes of their
/// secrets), and sign-in attempts (to limit them).
public protocol ConsoleStore: Sendable {
    /// Adds a person unless the tenant has one with this email; returns whether it was added.
    func add(_ user: ConsoleUser, passwordHash: String?) async throws -> Bool
    func users(tenantId: UUID) async throws -> [ConsoleUser]
    func user(tenantId: UUID, email: String) async throws -> (user: ConsoleUser, passwordHash: String?)?
    /// Removes a person with their sessions and links; returns whether there was one.
    func remove(tenantId: UUID, email: String) async throws -> Bool
    func setPassword(userId: UUID, hash: String) async throws
    func addLink(secretHash: Data, userId: UUID, expiresAt: Date) async throws
    /// Takes a link once: removes it and returns its person when it had not expired.
    func takeLink(secretHash: Data) async throws -> ConsoleUser?
    /// Starts a session, noting the person's sign-in.
    func addSession(secretHash: Data, userId: UUID, csrfToken: String, expiresAt: Date) async throws
    /// An unexpired session, with its person.
    func session(secretHash: Data) async throws -> (user: ConsoleUser, csrfToken: String, expiresAt: Date)?
    func removeSession(secretHash: Data) async throws
    /// Counts a sign-in attempt for `userKey` at `at`, in one statement, when fewer than `limit` were made since
    /// `since`; returns false, counting nothing, when `limit` were. Attempts made at once are counted one after
    /// the other, so no more than `limit` ever pass. An attempt stays counted until it is older than `since`
    /// or the key's attempts are cleared.
    func reserveAttempt(userKey: String, at: Date, since: Date, limit: Int) async throws -> Bool
    /// Gives back the attempt counted at `at` (one that was not checked).
    func releaseAttempt(userKey: String, at: Date) async throws
    /// Forgets the key's attempts (a sign-in that succeeded).
    func clearAttempts(userKey: String) async throws
}

public protocol DailyFiguresStore: Sendable {
    /// The last `days` days (UTC) up to today, oldest first, each day present.
    func daily(days: Int) async throws -> [DailyFigures]
}
