import AppStoreServer
import AppStoreSimulator
import Foundation
import PostgresNIO
import Storegate
import StoregatePostgres
import Testing

/// Storegate, the App Store simulator and PostgreSQL wired together over HTTP: a tenant whose Sandbox app
/// has the simulator's In-App Purchase key, and whose notification URL the simulator sends to.
struct Storefront {
    let sim: SimulatorHarness
    let capabilities: Capabilities
    let server: TestServer
    let tenant: Caller
    let apiKey: String
    let webhookURL: String
    let databaseURL: String
    static let bundleId = SimulatorHarness.bundleId

    var simulator: AppStoreSimulator { sim.simulator }
    var store: SimulatorStore { sim.store }

    /// Calls a method as the tenant; returns the whole response.
    func call(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
        try await server.call(method, params, apiKey: apiKey)
    }

    /// Calls a method that must succeed; returns its result.
    func result(_ method: String, _ params: [String: Any] = [:], sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        let reply = try await call(method, params)
        return try #require(reply["result"] as? [String: Any], "\(method): \(reply)", sourceLocation: sourceLocation)
    }

    /// Polls until `condition` holds (notifications and jobs arrive asynchronously); a timeout fails the test.
    func eventually(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool) async throws {
        try await StoregateTests.eventually(what, sourceLocation: sourceLocation, condition)
    }

    /// The processed notifications Storegate stored, counted.
    func processedCount() async throws -> Int {
        let schema = try TenantSchema(validating: tenant.tenant.storageName).sql
        return try await capabilities.postgres.client.withConnection { conn in
            try await conn.first(
                "SELECT count(*)::bigint FROM \(unescaped: schema).notifications WHERE processed_at IS NOT NULL", as: Int.self,
                logger: capabilities.postgres.logger
            ) ?? 0
        }
    }

    /// Waits until Storegate has processed `count` notifications.
    func processed(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await eventually("\(count) processed notifications", sourceLocation: sourceLocation) { try await processedCount() >= count }
    }

    /// A tenant whose app (in `environments`, Sandbox only by default) is in the simulator, served over HTTP.
    static func with<T: Sendable>(
        slug: String, sendNotifications: Bool = true, environments: [String] = ["Sandbox"],
        reconciliation: ReconciliationSettings = TestDatabase.reconciliation, retention: RetentionRuleService.Settings = TestDatabase.retention,
        _ body: @Sendable (Storefront) async throws -> T
    ) async throws -> T {
        try await SimulatorHarness.with { sim in
            try await TestDatabase.with(
                trust: (roots: [sim.simulator.ca.root], allowUnsignedEnvironments: false), appStoreURL: sim.baseURL, reconciliation: reconciliation,
                retention: retention
            ) {
                capabilities, databaseURL in
                let made = try await Fixtures.tenant(capabilities, slug: slug, bundleId: bundleId, environments: environments)
                _ = try await capabilities.apps.importKey(
                    tenant: made.tenant.tenant, bundleId: bundleId, keyId: sim.key.keyId, issuerId: Fixtures.issuerId, p8: sim.keyPEM, actor: Actor("test"))
                let app = try await capabilities.apps.get(tenant: made.tenant.tenant, bundleId: bundleId)
                let token = try #require(app.notificationURLs.first { $0.environment == .sandbox }?.token)
                return try await TestServer.with(capabilities) { server in
                    let url = server.baseURL + "/apple/notifications/" + token
                    if sendNotifications { await sim.store.setNotificationURL(bundleId: bundleId, url: url) }
                    return try await body(
                        Storefront(
                            sim: sim, capabilities: capabilities, server: server, tenant: made.tenant, apiKey: made.apiKey, webhookURL: url,
                            databaseURL: databaseURL))
                }
            }
        }
    }
}
