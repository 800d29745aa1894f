import Crypto
import Foundation
import KeyVault
import Logging
import PostgresNIO
import Storegate
import StoregatePostgres
import Testing

/// A server's caches against changes made by another process (the CLI, another server): with entries
/// kept for a minute, only hearing the change can make the server refuse or switch at once (within 15
/// seconds here, well inside the minute, with room for a loaded machine).
@Suite(.timeLimit(.minutes(10))) struct CacheCoherenceTests {
    static let longTTL = Duration.seconds(60)

    @Test func anotherProcessesRevocationAndSuspensionTakeEffectAtOnce() async throws {
        try await TestDatabase.with(authCacheTTL: Self.longTTL) { capabilities, url in
            let a = try await Fixtures.tenant(capabilities, slug: "coherent", bundleId: "com.example.coherent")
            try await TestServer.with(capabilities) { server in
                try await eventually("the server follows changes") { capabilities.coherence.isFollowing }
                let call = #"{"jsonrpc":"2.0","method":"tenant.get","id":1}"#
                #expect(try await server.rpc(raw: call, apiKey: a.apiKey).status == 200)
                try await OtherProcess.with(url: url, vault: capabilities.vault) { other in
                    _ = try await other.tenants.setStatus(slug: "coherent", .suspended, actor: Actor("cli"))
                    try await eventually("the suspension refused", timeout: .seconds(15)) {
                        try await server.rpc(raw: call, apiKey: a.apiKey).status == 403
                    }
                    _ = try await other.tenants.setStatus(slug: "coherent", .active, actor: Actor("cli"))
                    try await eventually("the reactivation admitted", timeout: .seconds(15)) {
                        try await server.rpc(raw: call, apiKey: a.apiKey).status == 200
                    }
                    try await other.apiKeys.revoke(tenant: a.tenant.tenant, prefix: a.tenant.apiKeyPrefix, actor: Actor("cli"))
                    try await eventually("the revoked key refused", timeout: .seconds(15)) {
                        let reply = try await server.rpc(raw: call, apiKey: a.apiKey)
                        return reply.status == 401 && reply.text.contains("revoked")
                    }
                }
            }
        }
    }

    /// `entitlements.check` answers from this process's catalog cache: a catalog another process sets reaches
    /// it through the change feed, not after the entry's minute.
    @Test func aCatalogSetByAnotherProcessAnswersTheNextCheck() async throws {
        try await TestDatabase.with(authCacheTTL: Self.longTTL) { capabilities, url in
            let a = try await Fixtures.tenant(capabilities, slug: "cataloged", bundleId: "com.example.cataloged")
            _ = try await capabilities.accounts.ensure(tenant: a.tenant.tenant, customerId: "kim", actor: Actor("cli"))
            _ = try await capabilities.subscriptions.grant(
                tenant: a.tenant.tenant, customerId: "kim", bundleId: nil, productId: nil, entitlement: "beta", days: 3, expiresDate: nil,
                reason: "early access", actor: Actor("cli"))
            try await TestServer.with(capabilities) { server in
                try await eventually("the server follows changes") { capabilities.coherence.isFollowing }
                let check = #"{"jsonrpc":"2.0","method":"entitlements.check","params":{"customerId":"kim","entitlement":"beta"},"id":1}"#
                #expect(try await server.rpc(raw: check, apiKey: a.apiKey).text.contains(#""active":true"#), "no catalog: any grant's name")
                let catalog = try JSONDecoder().decode(
                    Catalog.self, from: Data(#"{"products":[],"entitlements":[{"name":"gamma","description":"","productIds":[]}]}"#.utf8))
                try await OtherProcess.with(url: url, vault: capabilities.vault) { other in
                    _ = try await other.catalog.setCatalog(tenant: a.tenant.tenant, catalog, actor: Actor("cli"))
                    try await eventually("the new catalog answers", timeout: .seconds(15)) {
                        let reply = try await server.rpc(raw: check, apiKey: a.apiKey).text
                        return reply.contains("-32602") && reply.contains("entitlement")
                    }
                }
            }
        }
    }

    @Test func aKeyImportedByAnotherProcessSignsTheNextOffer() async throws {
        try await TestDatabase.with(authCacheTTL: Self.longTTL) { capabilities, url in
            let a = try await Fixtures.tenant(capabilities, slug: "rotating", bundleId: "com.example.rotating")
            _ = try await capabilities.apps.importKey(
                tenant: a.tenant.tenant, bundleId: "com.example.rotating", keyId: "OLDKEY0001", issuerId: Fixtures.issuerId,
                p8: P256.Signing.PrivateKey().pemRepresentation, actor: Actor("test"))
            try await TestServer.with(capabilities) { server in
                try await eventually("the server follows changes") { capabilities.coherence.isFollowing }
                @Sendable func signingKeyId() async throws -> String? {
                    let reply = try await server.call(
                        "offers.signPromotional", ["bundleId": "com.example.rotating", "productId": "p", "offerId": "o"], apiKey: a.apiKey)
                    return (reply["result"] as? [String: Any])?["keyIdentifier"] as? String
                }
                #expect(try await signingKeyId() == "OLDKEY0001")
                try await OtherProcess.with(url: url, vault: capabilities.vault) { other in
                    _ = try await other.apps.importKey(
                        tenant: a.tenant.tenant, bundleId: "com.example.rotating", keyId: "NEWKEY0001", issuerId: Fixtures.issuerId,
                        p8: P256.Signing.PrivateKey().pemRepresentation, actor: Actor("cli"))
                    try await eventually("the new key signing", timeout: .seconds(15)) { try await signingKeyId() == "NEWKEY0001" }
                }
            }
        }
    }

    /// While the listening connection is away, changes may be missed: the caches are emptied and keep
    /// entries only for the short TTL until the server listens again, and then they are emptied again.
    @Test func aLostListeningConnectionIsReplacedAndNothingMissedIsServed() async throws {
        try await TestDatabase.with(authCacheTTL: Self.longTTL) { capabilities, url in
            let a = try await Fixtures.tenant(capabilities, slug: "relisten", bundleId: "com.example.relisten")
            try await TestServer.with(capabilities) { server in
                try await eventually("the server follows changes") { capabilities.coherence.isFollowing }
                let call = #"{"jsonrpc":"2.0","method":"tenant.get","id":1}"#
                #expect(try await server.rpc(raw: call, apiKey: a.apiKey).status == 200)
                try await OtherProcess.with(url: url, vault: capabilities.vault) { other in
                    let ended = try await other.sql(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'")
                    #expect(ended == 1)
                    try await eventually("the lost listener noticed") { !capabilities.coherence.isFollowing }
                    try await eventually("the server listening again") { capabilities.coherence.isFollowing }
                    #expect(try await server.rpc(raw: call, apiKey: a.apiKey).status == 200)
                    try await other.apiKeys.revoke(tenant: a.tenant.tenant, prefix: a.tenant.apiKeyPrefix, actor: Actor("cli"))
                    try await eventually("the revoked key refused", timeout: .seconds(15)) {
                        try await server.rpc(raw: call, apiKey: a.apiKey).status == 401
                    }
                }
            }
        }
    }
}

/// Capabilities of a second process on the same database and master key: its own pool, its own caches.
struct OtherProcess {
    let capabilities: Capabilities
    let client: DatabaseClient

    var tenants: TenantService { capabilities.tenants }
    var apiKeys: APIKeyService { capabilities.apiKeys }
    var apps: AppService { capabilities.apps }
    var catalog: CatalogService { capabilities.catalog }

    static func with(url: String, vault: KeyVault, _ body: @Sendable (OtherProcess) async throws -> Void) async throws {
        let logger = TestLog.logger("other")
        let config = try DatabaseConfiguration(url: url, maximumConnections: 2)
        let client = DatabaseClient(configuration: config, backgroundLogger: logger)
        let capabilities = try Capabilities(
            persistence: PostgresPersistence(client: client, logger: logger, deadlines: TestDatabase.deadlines), vault: vault, logger: logger,
            reconciliation: TestDatabase.reconciliation)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            try await body(OtherProcess(capabilities: capabilities, client: client))
        }
    }

    func sql(_ query: PostgresQuery) async throws -> Int {
        try await client.withConnection { conn in
            let rows = try await conn.query(query, logger: Logger(label: "other"))
            for try await count in rows.decode(Int.self) { return count }
            return 0
        }
    }
}
