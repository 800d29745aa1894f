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
        try await TestDatabase.with { services, _ in
            for i in 0..<200 { _ = try await services.tenants.create(slug: "tenant-\(i)", name: "Tenant \(i)", actor: Actor("test")) }
            let next = TenantChain.chain.latestVersion + 1
            let added = Migration(next, "notes", ["CREATE TABLE {{schema}}.notes (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body text NOT NULL)"])
            let upgraded = Migrator(
                client: services.postgres.client, logger: services.postgres.logger, tenantChain: TenantChain.chain.appending(added), concurrency: 4)
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

            let stats = try await services.postgres.client.withConnection { conn in
                try await conn.first(
                    "SELECT count(*)::int FROM storegate.tenants WHERE schema_version = \(next)", as: Int.self, logger: services.postgres.logger)
            }
            #expect(stats == 200)
            // Each tenant's own ledger records both versions, once.
            for tenant in try await services.tenants.list().prefix(5) {
                let ledger = try await services.postgres.client.withConnection { conn in
                    try await conn.first(
                        "SELECT string_agg(version::text, ',' ORDER BY version) FROM \(unescaped: try TenantSchema(validating: tenant.storageName).sql).schema_migrations",
                        as: String.self,
                        logger: services.postgres.logger)
                }
                #expect(ledger == (1...next).map(String.init).joined(separator: ","))
            }
            // A new tenant is created at the latest version directly.
            let upgradedServices = try Services(
                persistence: PostgresPersistence(client: services.postgres.client, logger: services.postgres.logger, tenantChain: upgraded.tenantChain),
                vault: services.vault, logger: services.postgres.logger)
            let fresh = try await upgradedServices.tenants.create(slug: "fresh", name: "Fresh", actor: Actor("test"))
            #expect(fresh.schemaVersion == next)
        }
    }

    /// Editing an applied migration is detected instead of silently diverging.
    @Test func editedMigrationIsRefused() async throws {
        try await TestDatabase.with { services, _ in
            let tenant = try await services.tenants.create(slug: "drift", name: "Drift", actor: Actor("test"))
            let edited = Migration(1, "customers", ["SELECT 1"])
            let next = Migration(TenantChain.chain.latestVersion + 1, "x", ["CREATE TABLE {{schema}}.x (id int)"])
            let migrator = Migrator(
                client: services.postgres.client, logger: services.postgres.logger,
                tenantChain: MigrationChain([edited] + TenantChain.chain.migrations.dropFirst() + [next]))
            let report = try await migrator.migrateTenants()
            #expect(report.failures.count == 1)
            #expect(report.failures.first?.schema == tenant.storageName)
            #expect(report.failures.first?.error.contains("was applied with different SQL") == true)
        }
    }
}
