import Foundation
import Logging
import PostgresNIO
import Storegate

/// `Persistence` over PostgreSQL: the control schema `storegate` and one schema per tenant. A unit of
/// work holds one connection (and, for `.write`, one transaction); its stores are bound to it and, in a
/// tenant unit, to the tenant's schema, so no call site names a schema or a connection.
public struct PostgresPersistence: Persistence {
    /// The control schema's work, and tenants' too unless `tenantPools` has pools. Run by its owner.
    public let client: DatabaseClient
    /// Tenants' work, each tenant in a pool of its own (see `TenantPools`); run by its owner.
    public let tenantPools: TenantPools?
    public let logger: Logger
    public let migrator: Migrator
    public let deadlines: DatabaseDeadlines
    /// Told of each tenant unit's writes to customers' holdings (see `observeHoldingsWrites`).
    private let writes = WriteObservers()
    /// What ends each tenant unit that wrote holdings (see `endUnitsThatWriteHoldings`).
    private let ending = UnitEnding()

    public init(
        client: DatabaseClient, tenantPools: TenantPools? = nil, logger: Logger, tenantChain: MigrationChain = TenantChain.chain,
        deadlines: DatabaseDeadlines = .init()
    ) {
        self.client = client
        self.tenantPools = tenantPools
        self.logger = logger
        self.migrator = Migrator(client: client, logger: logger, tenantChain: tenantChain)
        self.deadlines = deadlines
    }

    public func observeHoldingsWrites(_ observer: @escaping @Sendable (HoldingsWrite) -> Void) { writes.add(observer) }

    public func endUnitsThatWriteHoldings(with step: @escaping @Sendable (any TenantUnit, Set<UUID>) async throws -> Void) { ending.set(step) }

    public func control<T: Sendable>(_ access: UnitAccess, _ body: (any ControlUnit) async throws -> T) async throws -> T {
        try await withConnection(access) { conn in try await body(PostgresControlUnit(conn: conn, logger: logger, migrator: migrator)) }
    }

    /// A unit that changed customers' holdings ends with the domain's step for them (`endUnitsThatWriteHoldings`),
    /// then announces them to the other processes by its last statement (in its transaction, so heard as it commits). This process's observers hear of each
    /// as it is written and again once the unit is over, committed or not, before it returns. A `.read`
    /// unit that fails after changing some (its statements commit one by one) still announces them when
    /// its connection still serves.
    public func inTenant<T: Sendable>(_ tenant: Tenant, _ access: UnitAccess, _ body: (any TenantUnit) async throws -> T) async throws -> T {
        let schema = try TenantSchema(validating: tenant.storageName)
        let changes = UnitChanges(tenant: tenant.id, observers: writes, defersEvents: access != .read)
        defer { writes.tell(.settled(tenant: tenant.id, customers: changes.customers)) }
        return try await withConnection(access, tenant: tenant.id) { conn in
            let value: T
            let unit = PostgresTenantUnit(tenant: tenant, schema: schema, conn: conn, logger: logger, changes: changes)
            do {
                value = try await body(unit)
                let written = changes.customers
                if !written.isEmpty, let end = ending.step { try await end(unit, written) }
                try await EventRepository(scope: unit.scope).write(changes.takeEvents())
                try await JobRepository(conn: conn, logger: logger, tenantId: tenant.id).enqueue(changes.takeJobs())
            } catch {
                if access == .read { try? await changes.announce(on: conn, logger: logger) }
                throw error
            }
            try await changes.announce(on: conn, logger: logger)
            return value
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
        let total =
            total
            ?? {
                switch access {
                case .schemaChange: deadlines.schemaChange
                case .rebuild: deadlines.rebuild
                case .read, .write: deadlines.unit
                }
            }()
        let logger = logger
        do {
            return try await Deadline.run(checkout: min(deadlines.checkout, total), total: total) { held in
                func unit(_ conn: PostgresConnection) async throws -> T {
                    try held.hold(conn)
                    do {
                        return try await HeldConnection.$current.withValue(held) {
                            guard access != .read else { return try await body(conn) }
                            return try await conn.transaction(logger: logger, closedUnderIt: { held.isClosed }) { try await body(conn) }
                        }
                    } catch {
                        // A connection this unit closed (its deadline, a cancellation, a failure that spoils it) goes
                        // back to the pool closed, not closing: told of the close, the pool leases it to no one else.
                        if held.isClosed { try? await conn.closeFuture.get() }
                        throw error
                    }
                }
                func lease() async throws -> T {
                    if let pools = tenantPools, !pools.isEmpty {
                        if access == .schemaChange || access == .rebuild { return try await pools.withSchemaChangeConnection(unit) }
                        if let tenant { return try await pools.withConnection(tenant: tenant, unit) }
                    }
                    return try await client.withConnection(unit)
                }
                // A connection found closed when leased had nothing sent on it: once its close is complete,
                // another is leased, a few times (a unit cut at its deadline closes its connection a moment
                // before the pool hears of it).
                for _ in 1..<Self.leasesPerUnit {
                    do {
                        return try await lease()
                    } catch let lost as ConnectionLost {
                        guard let closed = lost.closedWhenLeased else { throw lost }
                        try? await closed.closeFuture.get()
                    }
                }
                return try await lease()
            }
        } catch {
            // Also a deadline that passed: the primary may be gone (a failover), so it is looked for.
            if DatabaseUnavailable.reason(error) != nil { client.nodes.suspect() }
            throw Self.translate(error)
        }
    }

    /// How many connections a unit may lease, each found closed, before it reports the database unavailable.
    static let leasesPerUnit = 4

    static func translate(_ error: any Error) -> any Error {
        if let reason = DatabaseUnavailable.reason(error) { return StoregateError.unavailable(reason: reason) }
        guard let error = error as? PSQLError else { return error }
        if error.serverCode == .uniqueViolation { return UniqueViolation(constraint: error.serverInfo?[.constraintName] ?? "") }
        return StatementFailed(error) ?? error
    }
}
