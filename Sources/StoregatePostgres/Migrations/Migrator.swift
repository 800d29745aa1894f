import Foundation
import Logging
import PostgresNIO

/// Brings the control schema and every tenant schema to the latest version of their chains.
/// Each schema migrates in one transaction under its own advisory lock, so concurrent runs never
/// conflict and a failure leaves that schema as it was; tenants migrate with bounded concurrency and a
/// run can be repeated until everything is current.
public struct Migrator: Sendable {
    public let client: DatabaseClient
    public let logger: Logger
    public let controlChain: MigrationChain
    public let tenantChain: MigrationChain
    public let concurrency: Int

    public init(
        client: DatabaseClient, logger: Logger, controlChain: MigrationChain = ControlChain.chain, tenantChain: MigrationChain = TenantChain.chain,
        concurrency: Int = 4
    ) {
        self.client = client
        self.logger = logger
        self.controlChain = controlChain
        self.tenantChain = tenantChain
        self.concurrency = max(1, concurrency)
    }

    public struct TenantReport: Sendable {
        public var total = 0
        public var migrated = 0
        public var failures: [(schema: String, error: String)] = []
    }

    /// Applies the control chain; returns the versions it applied (empty when already current). On
    /// Citus, the control tables are then made Citus local tables (see `placeControlTablesOnCitus`).
    @discardableResult
    public func migrateControl() async throws -> [Int] {
        let applied = try await client.transaction(logger: logger) { conn in
            try await apply(controlChain, schemaSQL: ControlChain.schema, lockKey: "storegate.control", createSchema: true, on: conn)
        }
        try await client.withConnection { conn in try await placeControlTablesOnCitus(on: conn) }
        return applied
    }

    /// On Citus, each control table not yet known to it is added to its metadata as a Citus local table
    /// (with those its foreign keys reach): it stays on the coordinator, and a transaction that writes
    /// one and a tenant's tables on a worker commits on both or neither (two-phase commit; for a table
    /// Citus does not know, the worker would commit first and the coordinator could then fail). Without
    /// Citus, nothing.
    func placeControlTablesOnCitus(on conn: PostgresConnection) async throws {
        guard try await conn.first("SELECT to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL", as: Bool.self, logger: logger) == true else { return }
        while let table = try await conn.first(
            """
            SELECT c.oid::regclass::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = \(ControlChain.schema) AND c.relkind = 'r'
              AND NOT EXISTS (SELECT 1 FROM pg_dist_partition p WHERE p.logicalrelid = c.oid)
            ORDER BY c.relname LIMIT 1
            """, as: String.self, logger: logger)
        {
            try await conn.run("SELECT citus_add_local_table_to_metadata(\(table)::regclass, cascade_via_foreign_keys => true)", logger: logger)
        }
    }

    /// Migrates every tenant whose recorded version is behind, reporting `(done, total)` as it goes.
    public func migrateTenants(progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) async throws -> TenantReport {
        let target = tenantChain.latestVersion
        let pending = try await client.withConnection { conn in
            var pending: [(id: UUID, schema: String)] = []
            let rows = try await conn.query(
                "SELECT id, schema_name FROM storegate.tenants WHERE schema_version < \(target) ORDER BY created_at, id", logger: logger)
            for try await (id, schema) in rows.decode((UUID, String).self) { pending.append((id, schema)) }
            return pending
        }

        var report = TenantReport(total: pending.count)
        progress(0, pending.count)
        try await withThrowingTaskGroup(of: (String, String?).self) { group in
            var next = 0
            func startNext() {
                guard next < pending.count else { return }
                let tenant = pending[next]
                next += 1
                group.addTask {
                    do {
                        try await migrateTenant(id: tenant.id, schemaName: tenant.schema)
                        return (tenant.schema, nil)
                    } catch {
                        return (tenant.schema, String(reflecting: error))
                    }
                }
            }
            for _ in 0..<concurrency { startNext() }
            var done = 0
            for try await (schema, failure) in group {
                done += 1
                if let failure { report.failures.append((schema, failure)) } else { report.migrated += 1 }
                progress(done, pending.count)
                startNext()
            }
        }
        return report
    }

    /// Creates a new tenant schema and applies the whole chain, inside the caller's transaction.
    func createTenantSchema(_ schema: TenantSchema, on conn: PostgresConnection) async throws {
        _ = try await apply(tenantChain, schemaSQL: schema.sql, lockKey: schema.name, createSchema: true, on: conn)
    }

    /// Takes the advisory lock that serialises migrations and deletion of one tenant schema.
    static func lockTenant(_ schema: TenantSchema, on conn: PostgresConnection, logger: Logger) async throws {
        try await conn.run("SELECT pg_advisory_xact_lock(hashtextextended(\(schema.name), 0))", logger: logger)
    }

    /// Whether the control schema and every tenant are at the latest versions.
    public func isCurrent() async throws -> Bool {
        try await client.withConnection { conn in try await isCurrent(on: conn) }
    }

    func isCurrent(on conn: PostgresConnection) async throws -> Bool {
        let exists = try await conn.first("SELECT to_regclass('storegate.schema_migrations') IS NOT NULL", as: Bool.self, logger: logger)
        guard exists == true else { return false }
        let control = try await conn.first("SELECT coalesce(max(version), 0) FROM storegate.schema_migrations", as: Int.self, logger: logger)
        guard control == controlChain.latestVersion else { return false }
        let behind = try await conn.first(
            "SELECT count(*)::int FROM storegate.tenants WHERE schema_version < \(tenantChain.latestVersion)", as: Int.self, logger: logger)
        return behind == 0
    }

    private func migrateTenant(id: UUID, schemaName: String) async throws {
        let schema = try TenantSchema(validating: schemaName)
        try await client.transaction(logger: logger) { conn in
            try await Self.lockTenant(schema, on: conn, logger: logger)
            // The tenant may have been deleted since the list was read.
            guard try await conn.first("SELECT 1 FROM storegate.tenants WHERE id = \(id) FOR UPDATE", as: Int.self, logger: logger) != nil else {
                return
            }
            _ = try await apply(tenantChain, schemaSQL: schema.sql, lockKey: schema.name, createSchema: false, on: conn)
            try await conn.run(
                "UPDATE storegate.tenants SET schema_version = \(tenantChain.latestVersion), updated_at = now() WHERE id = \(id)", logger: logger)
        }
    }

    /// Applies the pending migrations of `chain` to one schema inside the caller's transaction.
    private func apply(_ chain: MigrationChain, schemaSQL: String, lockKey: String, createSchema: Bool, on conn: PostgresConnection) async throws -> [Int] {
        // A migration may run longer than the statement timeout every connection starts with.
        try await conn.run("SET LOCAL statement_timeout = 0", logger: logger)
        try await conn.run("SELECT pg_advisory_xact_lock(hashtextextended(\(lockKey), 0))", logger: logger)
        // On Citus with schema-based sharding (deploy/README.md) a new schema is distributed: a tenant's
        // is placed on a worker, while the control schema stays on the coordinator. The role a schema
        // belongs to is made on every node by the operator: Citus is not to copy it there (as a role
        // that is not a superuser, it could not). On PostgreSQL without Citus these settings are
        // placeholders nothing reads.
        if schemaSQL == ControlChain.schema {
            try await conn.run("SET LOCAL citus.enable_schema_based_sharding TO off", logger: logger)
        }
        try await conn.run(
            """
            SELECT set_config('citus.enable_create_role_propagation', 'off', true), set_config('citus.enable_alter_role_propagation', 'off', true),
                   set_config('citus.enable_alter_role_set_propagation', 'off', true)
            """, logger: logger)
        if createSchema {
            try await conn.run("CREATE SCHEMA IF NOT EXISTS \(unescaped: schemaSQL)", logger: logger)
        }
        try await conn.run(
            """
            CREATE TABLE IF NOT EXISTS \(unescaped: schemaSQL).schema_migrations (
                version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
            """, logger: logger)
        var applied: [Int: String] = [:]
        let rows = try await conn.query("SELECT version, checksum FROM \(unescaped: schemaSQL).schema_migrations", logger: logger)
        for try await (version, checksum) in rows.decode((Int, String).self) { applied[version] = checksum }

        var done: [Int] = []
        for migration in chain.migrations {
            if let checksum = applied[migration.version] {
                guard checksum == migration.checksum || migration.formerChecksums.contains(checksum) else {
                    throw DatabaseError.migrationChecksumMismatch(schema: schemaSQL, version: migration.version)
                }
                continue
            }
            for statement in migration.rendered(schema: schemaSQL) {
                try await conn.run(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await conn.run(
                "INSERT INTO \(unescaped: schemaSQL).schema_migrations (version, name, checksum) VALUES (\(migration.version), \(migration.name), \(migration.checksum))",
                logger: logger)
            done.append(migration.version)
        }
        return done
    }
}
