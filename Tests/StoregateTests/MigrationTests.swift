import Foundation
import Logging
import PostgresNIO
import Storegate
import StoregatePostgres
import Testing

@Suite struct MigrationTests {
    /// 200 tenants, a new migration added here: `migrate` brings all current, a second run is a no-op,
    /// and two concurrent runs do not conflict.
    @Test func migratesTwoHundredTenants() async throws {
        try await TestDatabase.with { capabilities, _ in
            for i in 0..<200 { _ = try await capabilities.tenants.create(slug: "tenant-\(i)", name: "Tenant \(i)", actor: Actor("test")) }
            let next = TenantChain.chain.latestVersion + 1
            let added = Migration(next, "notes", ["CREATE TABLE {{schema}}.notes (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body text NOT NULL)"])
            let upgraded = Migrator(
                client: capabilities.postgres.client, logger: capabilities.postgres.logger, tenantChain: TenantChain.chain.appending(added), concurrency: 4)
            #expect(try await upgraded.isCurrent() == false)

            // Two runs at once: every tenant is migrated exactly once between them.
            async let first = upgraded.migrateTenants()
            async let second = upgraded.migrateTenants()
            let (a, b) = try await (first, second)
            #expect(a.failures.isEmpty && b.failures.isEmpty)
            // The run that lists first finds all 200; the other finds those not yet migrated when it lists.
            #expect(max(a.total, b.total) == 200)
            #expect(a.migrated + b.migrated >= 200)

            let again = try await upgraded.migrateTenants()
            #expect(again.total == 0, "a second run finds nothing to do")
            #expect(try await upgraded.isCurrent())
            #expect(try await upgraded.migrateControl().isEmpty)

            let stats = try await capabilities.postgres.client.withConnection { conn in
                try await conn.first(
                    "SELECT count(*)::int FROM storegate.tenants WHERE schema_version = \(next)", as: Int.self, logger: capabilities.postgres.logger)
            }
            #expect(stats == 200)
            // Each tenant's own ledger records both versions, once.
            for tenant in try await capabilities.tenants.list().prefix(5) {
                let ledger = try await capabilities.postgres.client.withConnection { conn in
                    try await conn.first(
                        "SELECT string_agg(version::text, ',' ORDER BY version) FROM \(unescaped: try TenantSchema(validating: tenant.storageName).sql).schema_migrations",
                        as: String.self,
                        logger: capabilities.postgres.logger)
                }
                #expect(ledger == (1...next).map(String.init).joined(separator: ","))
            }
            // A new tenant is created at the latest version directly.
            let upgradedCapabilities = try Capabilities(
                persistence: PostgresPersistence(
                    client: capabilities.postgres.client, logger: capabilities.postgres.logger, tenantChain: upgraded.tenantChain,
                    deadlines: TestDatabase.deadlines),
                vault: capabilities.vault, logger: capabilities.postgres.logger)
            let fresh = try await upgradedCapabilities.tenants.create(slug: "fresh", name: "Fresh", actor: Actor("test"))
            #expect(fresh.schemaVersion == next)
        }
    }

    /// Editing an applied migration is detected instead of silently diverging.
    @Test func editedMigrationIsRefused() async throws {
        try await TestDatabase.with { capabilities, _ in
            let tenant = try await capabilities.tenants.create(slug: "drift", name: "Drift", actor: Actor("test"))
            let edited = Migration(1, "customers", ["SELECT 1"])
            let next = Migration(TenantChain.chain.latestVersion + 1, "x", ["CREATE TABLE {{schema}}.x (id int)"])
            let migrator = Migrator(
                client: capabilities.postgres.client, logger: capabilities.postgres.logger,
                tenantChain: MigrationChain([edited] + TenantChain.chain.migrations.dropFirst() + [next]))
            let report = try await migrator.migrateTenants()
            #expect(report.failures.count == 1)
            #expect(report.failures.first?.schema == tenant.storageName)
            #expect(report.failures.first?.error.contains("was applied with different SQL") == true)
        }
    }

    /// A schema that ran migration 12 before its edit (with the foreign key to the control schema that
    /// Citus cannot place) is accepted by its former checksum and loses the foreign key in 13.
    @Test(.disabled(if: Citus.cluster != nil, "Citus cannot hold the foreign key the old migration made"))
    func aMigrationEditedWithItsFormerChecksumNamedMigratesOn() async throws {
        try await TestDatabase.with { capabilities, _ in
            let tenant = try await capabilities.tenants.create(slug: "before", name: "Before", actor: Actor("test"))
            let schema = try TenantSchema(validating: tenant.storageName).sql
            let twelve = try #require(TenantChain.chain.migrations.first { $0.version == 12 })
            let former = try #require(twelve.formerChecksums.first)
            let log = capabilities.postgres.logger
            // The schema as the old chain left it: version 12, its old checksum, the foreign key.
            try await capabilities.postgres.client.withConnection { conn in
                try await conn.run(
                    """
                    ALTER TABLE \(unescaped: schema).webhook_deliveries ADD CONSTRAINT webhook_deliveries_endpoint_id_fkey
                    FOREIGN KEY (endpoint_id) REFERENCES storegate.webhook_endpoints (id) ON DELETE CASCADE
                    """, logger: log)
                try await conn.run("UPDATE \(unescaped: schema).schema_migrations SET checksum = \(former) WHERE version = 12", logger: log)
                try await conn.run("DELETE FROM \(unescaped: schema).schema_migrations WHERE version > 12", logger: log)
                try await conn.run("UPDATE storegate.tenants SET schema_version = 12 WHERE id = \(tenant.id)", logger: log)
            }
            let report = try await capabilities.postgres.migrator.migrateTenants()
            #expect(report.failures.isEmpty && report.migrated == 1)
            let foreignKeys = try await capabilities.postgres.client.withConnection { conn in
                try await conn.first(
                    "SELECT count(*)::int FROM pg_constraint WHERE conrelid = \("\(tenant.storageName).webhook_deliveries")::regclass AND confrelid = 'storegate.webhook_endpoints'::regclass",
                    as: Int.self, logger: log)
            }
            #expect(foreignKeys == 0)
            // A checksum that is neither the current nor a former one is still refused.
            try await capabilities.postgres.client.withConnection { conn in
                try await conn.run("UPDATE \(unescaped: schema).schema_migrations SET checksum = 'edited' WHERE version = 12", logger: log)
                try await conn.run("UPDATE storegate.tenants SET schema_version = 12 WHERE id = \(tenant.id)", logger: log)
            }
            #expect(try await capabilities.postgres.migrator.migrateTenants().failures.count == 1)
        }
    }
}
