import Foundation
import Logging
import PostgresNIO
import Storegate

/// `Persistence` over PostgreSQL: the control schema `storegate` and one schema per tenant. A unit of
/// work holds one connection (and, for `.write`, one transaction); its stores are bound to it and, in a
/// tenant unit, to the tenant's schema, so no call site names a schema or a connection.
public struct PostgresPersistence: Persistence {
    /// The control schema's work, and tenants' too unless `tenantPools` has pools. Run by its owner.
    public let client: PostgresClient
    /// Tenants' work, each tenant in a pool of its own (see `TenantPools`); run by its owner.
    public let tenantPools: TenantPools?
    public let logger: Logger
    public let migrator: Migrator
    public let deadlines: DatabaseDeadlines
    /// Told of the holdings each tenant unit changed, as it commits (see `observeCommits`).
    private let commits = CommitObservers()

    public init(
        client: PostgresClient, tenantPools: TenantPools? = nil, logger: Logger, tenantChain: MigrationChain = TenantChain.chain,
        deadlines: DatabaseDeadlines = .init()
    ) {
        self.client = client
        self.tenantPools = tenantPools
        self.logger = logger
        self.migrator = Migrator(client: client, logger: logger, tenantChain: tenantChain)
        self.deadlines = deadlines
    }

    public func observeCommits(_ observer: @escaping @Sendable (UUID, Set<UUID>) -> Void) { commits.add(observer) }

    public func control<T: Sendable>(_ access: UnitAccess, _ body: (any ControlUnit) async throws -> T) async throws -> T {
        try await withConnection(access) { conn in try await body(PostgresControlUnit(conn: conn, logger: logger, migrator: migrator)) }
    }

    /// The customers whose holdings the unit changed are announced to the other processes by the unit's
    /// last statement (in its transaction, so heard as it commits) and told to this process's observers
    /// before it returns. A `.read` unit that fails after changing some (its statements commit one by
    /// one) still tells this process, and the others when its connection still serves.
    public func inTenant<T: Sendable>(_ tenant: Tenant, _ access: UnitAccess, _ body: (any TenantUnit) async throws -> T) async throws -> T {
        let schema = try TenantSchema(validating: tenant.storageName)
        let changes = UnitChanges()
        do {
            let value = try await withConnection(access, tenant: tenant.id) { conn in
                let value: T
                do {
                    value = try await body(PostgresTenantUnit(tenant: tenant, schema: schema, conn: conn, logger: logger, changes: changes))
                } catch {
                    if access == .read { try? await changes.announce(tenant: tenant.id, on: conn, logger: logger) }
                    throw error
                }
                try await changes.announce(tenant: tenant.id, on: conn, logger: logger)
                return value
            }
            commits.tell(tenant.id, changes.customers)
            return value
        } catch {
            if access == .read { commits.tell(tenant.id, changes.customers) }
            throw error
        }
    }

    public func isCurrent() async throws -> Bool {
        try await withConnection(.read, total: deadlines.readiness) { conn in try await migrator.isCurrent(on: conn) }
    }

    /// Runs `body` on one connection, in a transaction unless `.read`, within the deadlines. The error
    /// thrown inside is rethrown as itself; a unique violation becomes the domain's `UniqueViolation`,
    /// and a database that is away or too slow becomes `StoregateError.unavailable`.
    /// A tenant's unit (`tenant`) runs on a connection of its pool when there are tenant pools, and a
    /// schema change on theirs for schema changes.
    func withConnection<T: Sendable>(
        _ access: UnitAccess, tenant: UUID? = nil, total: Duration? = nil, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let total = total ?? (access == .schemaChange ? deadlines.schemaChange : deadlines.unit)
        let logger = logger
        do {
            return try await Deadline.run(checkout: min(deadlines.checkout, total), total: total) { held in
                let unit: (PostgresConnection) async throws -> T = { conn in
                    try held.hold(conn)
                    return try await HeldConnection.$current.withValue(held) {
                        guard access != .read else { return try await body(conn) }
                        return try await conn.transaction(logger: logger, closedUnderIt: { held.isClosed }) { try await body(conn) }
                    }
                }
                if let pools = tenantPools, !pools.isEmpty {
                    if access == .schemaChange { return try await pools.withSchemaChangeConnection(unit) }
                    if let tenant { return try await pools.withConnection(tenant: tenant, unit) }
                }
                return try await client.withConnection(unit)
            }
        } catch {
            throw Self.translate(error)
        }
    }

    static func translate(_ error: any Error) -> any Error {
        if let reason = DatabaseUnavailable.reason(error) { return StoregateError.unavailable(reason: reason) }
        guard let error = error as? PSQLError else { return error }
        if error.serverCode == .uniqueViolation { return UniqueViolation(constraint: error.serverInfo?[.constraintName] ?? "") }
        return StatementFailed(error) ?? error
    }
}

/// A unit of work over the control schema.
struct PostgresControlUnit: ControlUnit {
    let conn: PostgresConnection
    let logger: Logger
    let migrator: Migrator

    var tenants: any TenantRegistry { TenantRepository(conn: conn, logger: logger, migrator: migrator) }
    var apiKeys: any APIKeyLookup { APIKeyRepository(conn: conn, logger: logger, tenantId: nil) }
    var sealedKeys: any SealedKeyRewrap { SealedKeyRepository(conn: conn, logger: logger) }
    var jobs: any Storegate.JobQueue { JobRepository(conn: conn, logger: logger, tenantId: nil) }
    var inbox: any NotificationInbox { NotificationInboxRepository(conn: conn, logger: logger) }

    func webhook(token: String) async throws -> (webhook: Webhook, app: App, tenant: Tenant)? {
        try await WebhookLookup(conn: conn, logger: logger).find(token: token)
    }

    func audit(_ entries: [NewAuditEntry]) async throws {
        try await AuditRepository(conn: conn, logger: logger, tenantId: nil).append(entries)
    }

    /// For the tenant's audit and manifest rows; holdings written here would not be announced.
    func inTenant(_ tenant: Tenant) throws -> any TenantUnit {
        PostgresTenantUnit(tenant: tenant, schema: try TenantSchema(validating: tenant.storageName), conn: conn, logger: logger, changes: UnitChanges())
    }
}

/// A unit of work inside one tenant: control rows filtered by the tenant's id, and the tenant's schema.
struct PostgresTenantUnit: TenantUnit {
    let tenant: Tenant
    let schema: TenantSchema
    let conn: PostgresConnection
    let logger: Logger
    let changes: UnitChanges

    var scope: TenantScope { TenantScope(conn: conn, logger: logger, tenantId: tenant.id, schema: schema, changes: changes) }

    var apps: any AppStore { AppRepository(scope: scope) }
    var apiKeys: any APIKeyStore { APIKeyRepository(conn: conn, logger: logger, tenantId: tenant.id) }
    var customers: any CustomerStore { CustomerRepository(scope: scope) }
    var transactions: any TransactionStore { TransactionRepository(scope: scope) }
    var subscriptions: any SubscriptionStore { SubscriptionRepository(scope: scope) }
    var notifications: any NotificationStore { NotificationRepository(scope: scope) }
    var refunds: any RefundStore { RefundRepository(scope: scope) }
    var extensions: any RenewalExtensionStore { RenewalExtensionRepository(scope: scope) }
    var appTransactions: any AppTransactionStore { AppTransactionRepository(scope: scope) }
    var externalPurchaseTokens: any ExternalPurchaseTokenStore { ExternalPurchaseTokenRepository(scope: scope) }
    var events: any EventStore { EventRepository(scope: scope) }
    var webhookEndpoints: any WebhookEndpointStore { WebhookEndpointRepository(scope: scope) }
    var webhookDeliveries: any WebhookDeliveryStore { WebhookDeliveryRepository(scope: scope) }

    func enqueue(_ kind: Job.Kind, ref: String, due: Date) async throws {
        try await JobRepository(conn: conn, logger: logger, tenantId: tenant.id).enqueue(kind, ref: ref, due: due)
    }

    func completeJobs(_ kind: Job.Kind, refs: [String]) async throws {
        try await JobRepository(conn: conn, logger: logger, tenantId: tenant.id).complete(kind, refs: refs)
    }

    func audit(_ actor: Actor, _ action: String, _ detail: [String: String]) async throws {
        try await AuditRepository(conn: conn, logger: logger, tenantId: tenant.id).append([
            try NewAuditEntry(actor: actor, tenantId: tenant.id, action: action, detail: detail)
        ])
    }

    func auditLog() async throws -> [AuditEntry] {
        try await AuditRepository(conn: conn, logger: logger, tenantId: tenant.id).entries()
    }

    func exportTables() async throws -> [(name: String, rows: String)] {
        try await TenantExportQueries(scope: scope).tables()
    }

    /// How many statements are prepared on this unit's connection: for tests.
    var preparedCount: Int { PreparedStatements.shared.preparedCount(on: conn) }
}

/// What every tenant repository holds: the unit's connection, the tenant's id and its schema.
struct TenantScope: Sendable {
    let conn: PostgresConnection
    let logger: Logger
    let tenantId: UUID
    let schema: TenantSchema
    /// Whose holdings the unit changed.
    let changes: UnitChanges

    /// The quoted schema name, the one piece of SQL text that is not a bound parameter.
    var sql: String { schema.sql }

    func run(_ query: PostgresQuery) async throws { try await conn.run(query, logger: logger) }

    func first<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type) async throws -> T? {
        try await conn.first(query, as: type, logger: logger)
    }

    func column<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as type: T.Type) async throws -> [T] {
        try await conn.column(query, as: type, logger: logger)
    }

    func all<T>(_ query: PostgresQuery, _ make: (PostgresRow) throws -> T) async throws -> [T] {
        try await conn.all(query, logger: logger, make)
    }

    /// `all` for the hot statements: prepared on the connection once the text repeats there.
    func hot<T>(_ query: TypedQuery, _ make: (PostgresRow) throws -> T) async throws -> [T] {
        try await conn.hot(query, logger: logger, make)
    }

    /// `run` for a hot statement.
    func hot(_ query: TypedQuery) async throws { _ = try await conn.hot(query, logger: logger) { _ in () } }

    /// `first` for a hot statement.
    func hot<T: PostgresDecodable & Sendable>(_ query: TypedQuery, as type: T.Type) async throws -> T? {
        try await conn.hot(query, logger: logger) { try $0.decode(T.self) }.first
    }
}
