import AppStoreServer
import AsyncHTTPClient
import Foundation
import KeyVault
import Logging
import NIOCore
import X509

/// How events are sent to tenants' webhook endpoints.
public struct WebhookSettings: Sendable {
    /// Which URLs are accepted (`https` and public addresses only, unless started for development).
    public var urls: WebhookURLPolicy
    public var delivery: WebhookDeliveryPolicy
    /// How long a claimed job of the queue stays claimed unless its worker renews it: a worker that dies
    /// leaves its jobs to others after this. A claimed delivery stays claimed at least as long as one
    /// attempt may take, and 5 seconds more, so that a slow receiver is not sent the same event twice.
    public var jobLease: Duration
    /// Told of every delivery attempt (for metrics): its outcome, the attempt, the event's age in seconds.
    public var observe: @Sendable (WebhookDelivery.Status, WebhookDelivery.Attempt, TimeInterval) -> Void

    public init(
        urls: WebhookURLPolicy = .production, delivery: WebhookDeliveryPolicy = WebhookDeliveryPolicy(), jobLease: Duration = .seconds(10),
        observe: @escaping @Sendable (WebhookDelivery.Status, WebhookDelivery.Attempt, TimeInterval) -> Void = { _, _, _ in }
    ) {
        self.urls = urls
        self.delivery = delivery
        self.jobLease = jobLease
        self.observe = observe
    }
}

extension WebhookSettings {
    var deliveryLease: Duration { max(jobLease, .nanoseconds(WebhookSender.timeout.nanoseconds) + .seconds(5)) }
}

/// What Storegate can do for its tenants, each capability its service (tenants, offers, accounts, refunds,
/// subscriptions, notifications, events, …): the domain's composition root, one value that the CLI, the
/// server and the tests build over any `Persistence` (PostgreSQL in production: `StoregatePostgres`).
/// These are not ServiceLifecycle's `Service`s, which the server runs beside them.
public struct Capabilities: Sendable {
    public let persistence: any Persistence
    public let vault: KeyVault
    public let tenants: TenantService
    public let apps: AppService
    public let apiKeys: APIKeyService
    public let signingKeys: SigningKeyStore
    public let offers: OfferService
    public let notifications: NotificationIngest
    public let accounts: AccountService
    public let refunds: RefundService
    public let subscriptions: SubscriptionService
    public let transactions: TransactionService
    public let advancedCommerce: AdvancedCommerceService
    /// The tenant's products and the entitlements they unlock.
    public let catalog: CatalogService
    /// Figures a business runs on, rolled up from lifecycle events.
    public let metrics: MetricsService
    /// Transactions, events and subscriptions as CSV or newline-delimited JSON.
    public let exports: ExportService
    /// Customers' attributes and support notes.
    public let customerProfiles: CustomerProfileService
    public let customerErasure: CustomerErasureService
    /// Everything held about one customer, as one document (`customers.export`).
    public let customerExports: CustomerExportService
    public let events: EventService
    /// The tenant's audit log, read.
    public let audit: AuditService
    public let webhooks: WebhookService
    /// Runs the durable job queue (notification processing, consumption answers).
    public let worker: JobWorker
    /// The process-wide cache of verified Apple certificate chains.
    public let chains: ChainVerifier
    /// Keeps the caches of API keys, signers, webhook tokens, tenants and holdings in step with every
    /// process's changes; a server runs it (`run()`) for its whole life.
    public let coherence: CacheCoherence
    /// Customers' holdings, behind status and entitlement reads.
    public let holdings: HoldingsCache
    /// The support console's people and sessions.
    public let consoleUsers: ConsoleUserService
    /// Apps' Retention Messaging with Apple.
    public let retention: RetentionMessagingService
    /// Apps' retention rules, and the answers to Apple's Get Retention Message requests.
    public let retentionRules: RetentionRuleService
    /// How long each tenant keeps payloads, events, deliveries, audit entries and ended sessions.
    public let dataRetention: DataRetentionService

    /// `trust` says which roots signed data must chain to (Apple Root CA - G3 in production) and whether
    /// unsigned Xcode/LocalTesting data is accepted (development only).
    public init(
        persistence: any Persistence, vault: KeyVault, logger: Logger, authCacheTTL: Duration = .seconds(5),
        trust: (roots: [Certificate], allowUnsignedEnvironments: Bool)? = nil, appStoreURL: String? = nil, http: HTTPClient = .shared,
        workerPollInterval: Duration = .seconds(1), ocsp: (any OCSPTransport)? = nil, webhooks: WebhookSettings = WebhookSettings(),
        holdingsCache: HoldingsCache.Settings = HoldingsCache.Settings(), reconciliation: ReconciliationSettings = ReconciliationSettings(),
        console: ConsoleUserService.Settings = ConsoleUserService.Settings(), retention: RetentionRuleService.Settings = RetentionRuleService.Settings(),
        dataRetention: DataRetentionSettings = DataRetentionSettings()
    ) throws {
        self.persistence = persistence
        self.vault = vault
        self.signingKeys = SigningKeyStore(persistence: persistence, vault: vault)
        self.coherence = CacheCoherence(persistence: persistence, logger: logger)
        self.apiKeys = APIKeyService(persistence: persistence, cacheTTL: authCacheTTL, coherence: coherence, logger: logger)
        // One directory of bundle IDs by app id, for every answer that names apps.
        let directory = AppDirectory(persistence: persistence)
        self.apps = AppService(persistence: persistence, vault: vault, signingKeys: signingKeys)
        self.tenants = TenantService(persistence: persistence, signingKeys: signingKeys)
        self.offers = OfferService(persistence: persistence, signingKeys: signingKeys, cacheTTL: authCacheTTL, coherence: coherence)
        // With `ocsp`, every certificate's revocation is checked online (an unreachable responder is a retryable failure)
        // and a verified chain is remembered for 15 minutes, as Apple's libraries do.
        self.chains = ChainVerifier(roots: try trust?.roots ?? [ChainVerifier.appleRootCAG3()], ocsp: ocsp)
        let verification = Verification(chains: chains, allowUnsignedEnvironments: trust?.allowUnsignedEnvironments ?? false)
        let gateway = AppStoreGateway(http: http, baseURL: appStoreURL, signingKeys: signingKeys, persistence: persistence)
        let processor = NotificationProcessor(persistence: persistence, verification: verification, gateway: gateway)
        // Wakes the worker when a service adds a job.
        let jobs = JobSignal()
        self.refunds = RefundService(
            persistence: persistence, gateway: gateway, verification: verification, logger: logger, directory: directory, jobs: jobs)
        let sender = WebhookSender(policy: webhooks.urls)
        let dispatcher = WebhookDispatcher(
            persistence: persistence, vault: vault, sender: sender, policy: webhooks.delivery, lease: webhooks.deliveryLease, logger: logger,
            observe: webhooks.observe)
        self.webhooks = WebhookService(persistence: persistence, vault: vault, policy: webhooks.urls, sender: sender, directory: directory)
        // What each app's webhook token names: the notification URL's and the Get Retention Message URL's.
        let notificationURLs = NotificationURLTokens(ttl: authCacheTTL, coherence: coherence) { _, target in target.tenant.id }
        self.notifications = NotificationIngest(
            persistence: persistence, verification: verification, jobs: jobs, gateway: gateway, logger: logger, notificationURLs: notificationURLs,
            directory: directory, inbox: NotificationIngest.inbox(persistence))
        self.holdings = HoldingsCache(holdingsCache, ttl: authCacheTTL, coherence: coherence)
        // Each tenant's catalog, per process, for access answers; coherent as the tenant's other caches are.
        let catalogs = CatalogCache(ttl: authCacheTTL, coherence: coherence)
        self.catalog = CatalogService(persistence: persistence, directory: directory, cache: catalogs)
        self.subscriptions = SubscriptionService(
            persistence: persistence, gateway: gateway, verification: verification, holdings: holdings, directory: directory, catalog: catalog)
        // Every unit that writes customers' holdings ends by eventing the customers whose entitlement names changed.
        let entitlementChanges = EntitlementChanges(catalogs: catalogs, directory: directory)
        persistence.endUnitsThatWriteHoldings { unit, customers in try await entitlementChanges.record(in: unit, customers: customers) }
        self.dataRetention = DataRetentionService(persistence: persistence, settings: dataRetention)
        self.worker = JobWorker(
            persistence: persistence, processor: processor, refunds: refunds, webhooks: dispatcher,
            reconciliation: Reconciliation(
                persistence: persistence, ingest: notifications, subscriptions: subscriptions, settings: reconciliation, logger: logger),
            dataRetention: self.dataRetention, logger: logger, pollInterval: workerPollInterval, lease: webhooks.jobLease, coherence: coherence, signal: jobs)
        self.transactions = TransactionService(persistence: persistence, gateway: gateway, verification: verification, directory: directory)
        self.advancedCommerce = AdvancedCommerceService(persistence: persistence, gateway: gateway, verification: verification)
        self.metrics = MetricsService(persistence: persistence)
        self.exports = ExportService(persistence: persistence)
        self.customerProfiles = CustomerProfileService(persistence: persistence)
        self.customerErasure = CustomerErasureService(persistence: persistence)
        self.customerExports = CustomerExportService(persistence: persistence)
        self.events = EventService(persistence: persistence)
        self.audit = AuditService(persistence: persistence)
        self.accounts = AccountService(persistence: persistence, verification: verification, gateway: gateway, directory: directory)
        self.consoleUsers = ConsoleUserService(persistence: persistence, settings: console)
        self.retention = RetentionMessagingService(persistence: persistence, gateway: gateway)
        self.retentionRules = RetentionRuleService(
            persistence: persistence, verification: verification, notificationURLs: notificationURLs, subscriptions: subscriptions, offers: offers,
            cacheTTL: authCacheTTL, coherence: coherence, logger: logger, settings: retention)
    }

    /// Whether storage is reachable and at the version this build expects.
    public func isReady() async throws -> Bool { try await persistence.isCurrent() }
}

extension Persistence {
    /// The app with this bundle ID in the tenant; another tenant's app is simply not found.
    func app(_ tenant: Tenant, bundleId: String, field: String = "bundleId") async throws -> App {
        let bundleId = try Validate.bundleId(bundleId, field: field)
        guard let app = try await inTenant(tenant, .read, { try await $0.apps.find(bundleId: bundleId) }) else { throw StoregateError.notFound(field: field) }
        return app
    }

    /// The id of the app with this bundle ID, when one is given: a filter that may be absent.
    func appId(_ tenant: Tenant, bundleId: String?) async throws -> UUID? {
        guard let bundleId else { return nil }
        return try await app(tenant, bundleId: bundleId).id
    }

    /// The tenant with this id, when it still exists.
    func tenant(id: UUID) async throws -> Tenant? {
        try await control(.read) { try await $0.tenants.find(id: id) }
    }
}
