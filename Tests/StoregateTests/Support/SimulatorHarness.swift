import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging

/// An App Store simulator on a free loopback port, an app registered in it, and a client for that app.
struct SimulatorHarness {
    let simulator: AppStoreSimulator
    let client: AppStoreServerAPIClient
    let baseURL: String
    let key: SigningKey
    /// The harness key's private key as a `.p8`, to import into Storegate.
    let keyPEM: String
    static let bundleId = "com.example.simulated"

    var store: SimulatorStore { simulator.store }

    /// A verifier that trusts the simulator's root, for this app in Sandbox.
    func verifier() -> SignedDataVerifier {
        SignedDataVerifier(
            configuration: .init(bundleId: Self.bundleId, appAppleId: 1_234_567, environment: "Sandbox"), chains: ChainVerifier(roots: [simulator.ca.root]))
    }

    /// `timeScale` compresses Apple's notification retry schedule (an hour becomes `3600 × timeScale` seconds).
    static func with<T: Sendable>(
        retry: RetryPolicy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), maxDelay: .milliseconds(50), budget: .seconds(5)),
        timeScale: Double = 0.00001, _ body: @Sendable (SimulatorHarness) async throws -> T
    ) async throws -> T {
        let http = NotificationSender.makeHTTPClient()
        // An attempt waits long for Storegate's answer: on a loaded machine an answer can take seconds, and with
        // the retry schedule compressed, an attempt cut short at a few seconds would soon use up Apple's
        // retries and lose the notification, which no test means (a test of a failed delivery sends it
        // where nothing listens, refused at once).
        let sender = NotificationSender(
            http: http, timeScale: timeScale, attemptTimeout: .seconds(60), logger: TestLog.logger("sender"))
        // Apple's performance test, with a response-time threshold no loaded test machine misses.
        var performanceTest = AppStoreSimulator.applesPerformanceTest
        performanceTest.responseTimeThreshold = 10_000
        let simulator = try AppStoreSimulator(sender: sender, performanceTest: performanceTest)
        let privateKey = P256.Signing.PrivateKey()
        let key = SigningKey(keyId: "SIMKEY0001", issuerId: Fixtures.issuerId, bundleId: bundleId, privateKey: privateKey)
        await simulator.store.register(bundleId: bundleId, appAppleId: 1_234_567)
        await simulator.store.registerKey(bundleId: bundleId, keyId: key.keyId, issuerId: key.issuerId, publicKey: key.publicKey)
        let app = simulator.application(port: 0, logger: TestLog.logger("sim"))
        do {
            let result = try await app.test(.ahc(.http)) { running in
                let baseURL = "http://localhost:\(try running.boundPort())"
                let client = AppStoreServerAPIClient(http: http, token: AppStoreServerAPIToken(key: key), environment: .custom(baseURL), retry: retry)
                return try await body(SimulatorHarness(simulator: simulator, client: client, baseURL: baseURL, key: key, keyPEM: privateKey.pemRepresentation))
            }
            sender.shutdown()
            try await http.shutdown()
            return result
        } catch {
            sender.shutdown()
            try? await http.shutdown()
            throw error
        }
    }
}
