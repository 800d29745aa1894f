import Foundation
import PostgresNIO
import Storegate
import Testing

@testable import StoregatePostgres

/// `deploy/schema.sql` is the current shape of the control and tenant schemas, generated from the chains:
/// a table can be read there instead of replaying every migration.
@Suite struct SchemaSnapshotTests {
    static let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../deploy/schema.sql")

    /// The committed file is what the chains make: regenerate with `storegate schema > deploy/schema.sql`.
    @Test func committedSnapshotMatchesTheChains() async throws {
        try await TestDatabase.with { capabilities, _ in
            let text = try await SchemaSnapshot.describe(client: capabilities.postgres.client, logger: capabilities.postgres.logger)
            let committed = try String(contentsOf: Self.committed, encoding: .utf8)
            #expect(text == committed, "deploy/schema.sql has drifted from the migration chains: run `storegate schema > deploy/schema.sql`")
        }
    }

    /// A tenant created the real way has exactly the snapshot's tenant schema.
    @Test func aRealTenantHasTheSnapshotsTenantSchema() async throws {
        try await TestDatabase.with { capabilities, _ in
            let made = try await capabilities.tenants.create(slug: "snapshot", name: "Snapshot", actor: Actor("test"))
            let snapshot = try await SchemaSnapshot.describe(client: capabilities.postgres.client, logger: capabilities.postgres.logger)
            let tenantPart = try #require(snapshot.components(separatedBy: "at version \(TenantChain.chain.latestVersion).\n\n").last)
            let logger = capabilities.postgres.logger
            let real = try await capabilities.postgres.client.withConnection { connection in
                _ = try await connection.query("BEGIN", logger: logger)
                _ = try await connection.query("SET LOCAL search_path TO pg_catalog", logger: logger)
                let text = try await SchemaSnapshot.describe(schema: made.storageName, writtenAs: "{{schema}}", on: connection, logger: logger)
                _ = try await connection.query("ROLLBACK", logger: logger)
                return text
            }
            #expect(real == tenantPart)
        }
    }
}
