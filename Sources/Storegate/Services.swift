import AppStoreServer
import AsyncHTTPClient
import Foundation
import KeyVault
import Logging
import PostgresNIO
import StoregatePostgres
import X509

/// The domain's composition root: one value that the CLI and the server both build from configuration.
public struct Services: Sendable {
    public let database: Database
    public let vault: KeyVault
    public let migrator: Migrator
    public let tenants: TenantService
    public let apps: AppService
    public let apiKeys: APIKeyService
    public let signingKeys: SigningKeyStore
    public let offers: OfferService
    public let notifications: NotificationIngest
    public let accounts: AccountService
    public let refunds: RefundService
    public let subscriptions: SubscriptionService
    /// Runs the durable job queue (notification processing, consumption answers).
    public let worker: JobWorker
    /// The process-wide cache of verified Apple certificate chains.
    public let chains: ChainVerifier

    /// `trust` says which roots signed data must chain to (Apple Root CA - G3 in production) and whether
    /// unsigned Xcode/LocalTesting data is accepted (development only).
    public init(
        database: Database, vault: KeyVault, migrator: Migrator? = nil, authCacheTTL: Duration = .seconds(5),
        trust: (roots: [Certificate], allowUnsignedEnvironments: Bool)? = nil, appStoreURL: String? = nil, http: HTTPClient = .shared,
        workerPollInterval: Duration = .seconds(1)
    ) {
        let migrator = migrator ?? Migrator(database: database)
        let repositories = Repositories(logger: database.logger)
        self.database = database
        self.vault = vault
        self.migrator = migrator
        self.signingKeys = SigningKeyStore(database: database, vault: vault, repositories: repositories)
        self.apiKeys = APIKeyService(database: database, repositories: repositories, cacheTTL: authCacheTTL)
        self.apps = AppService(database: database, vault: vault, repositories: repositories, signingKeys: signingKeys)
        self.tenants = TenantService(database: database, migrator: migrator, repositories: repositories, signingKeys: signingKeys)
        self.offers = OfferService(database: database, repositories: repositories, signingKeys: signingKeys, cacheTTL: authCacheTTL)
        let roots = trust?.roots ?? ((try? ChainVerifier.appleRootCAG3()).map { [$0] } ?? [])
        self.chains = ChainVerifier(roots: roots)
        let allowUnsigned = trust?.allowUnsignedEnvironments ?? false
        let logger = database.logger
        let gateway = AppStoreGateway(http: http, baseURL: appStoreURL, signingKeys: signingKeys, database: database, apps: repositories.apps)
        let accountRepository = AccountRepository(logger: logger)
        let refundRepository = RefundRepository(logger: logger)
        let subscriptionRepository = SubscriptionRepository(logger: logger)
        let notificationRepository = NotificationRepository(logger: logger)
        let jobs = JobQueue(logger: logger)
        let verification = DeviceDataVerification(chains: chains, allowUnsignedEnvironments: allowUnsigned)
        let processor = NotificationProcessor(
            database: database, repositories: repositories, notifications: notificationRepository, accounts: accountRepository,
            subscriptions: subscriptionRepository, refunds: refundRepository, jobs: jobs, chains: chains, allowUnsignedEnvironments: allowUnsigned)
        self.notifications = NotificationIngest(
            database: database, repositories: repositories, notifications: notificationRepository, chains: chains, allowUnsignedEnvironments: allowUnsigned,
            jobs: jobs, processor: processor, gateway: gateway, logger: logger)
        self.refunds = RefundService(
            database: database, repositories: repositories, accounts: accountRepository, refunds: refundRepository, jobs: jobs, gateway: gateway,
            verification: verification, logger: logger)
        self.subscriptions = SubscriptionService(
            database: database, repositories: repositories, accounts: accountRepository, subscriptions: subscriptionRepository, refunds: refundRepository,
            gateway: gateway, chains: chains, allowUnsignedEnvironments: allowUnsigned)
        self.worker = JobWorker(database: database, processor: processor, refunds: refunds, logger: logger, pollInterval: workerPollInterval)
        self.accounts = AccountService(database: database, repositories: repositories, accounts: accountRepository, verification: verification, gateway: gateway)
    }
}

/// Who did something, for the audit log: `cli:<user>` or `apikey:<prefix>`.
public struct Actor: Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
    public static var cli: Actor { Actor("cli:" + (ProcessInfo.processInfo.environment["USER"] ?? "unknown")) }
}

struct Repositories: Sendable {
    let tenants: TenantRepository
    let apps: AppRepository
    let apiKeys: APIKeyRepository
    let audit: AuditLog

    init(logger: Logger) {
        tenants = TenantRepository(logger: logger)
        apps = AppRepository(logger: logger)
        apiKeys = APIKeyRepository(logger: logger)
        audit = AuditLog(logger: logger)
    }
}

extension Database {
    /// Runs `body` in a transaction, turning a unique violation into a `conflict` on `field`.
    func transaction<T: Sendable>(conflictField field: String, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await transaction(body)
        } catch let error as PSQLError where error.sqlState == "23505" {
            throw StoregateError.conflict(field: field, reason: "already exists")
        }
    }
}

extension Services {
    /// Direct access to the repositories, for tests that inspect what is stored.
    public var repositoriesForTests: (apps: AppRepository, tenants: TenantRepository) {
        let repositories = Repositories(logger: database.logger)
        return (repositories.apps, repositories.tenants)
    }
}
