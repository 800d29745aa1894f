import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// The simulator's signed data passes Apple's own `SignedDataVerifier` (the App Store Server Library for
/// Python, strict certificate checks), so a tenant can test its backend with Apple's libraries against it.
@Suite struct AppleLibraryTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("AppleLibrary/verify_signed_data.py").path

    /// Runs Apple's verifier on `jws`; its output and exit status.
    static func appleVerifies(_ jws: String, kind: String, root: Data) async throws -> (status: Int32, stdout: String, stderr: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apple-lib-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try root.write(to: directory.appendingPathComponent("root.der"))
        try Data(jws.utf8).write(to: directory.appendingPathComponent("data.jws"))
        return try await Subprocess.run(
            "/usr/bin/env",
            [
                "python3", script, directory.appendingPathComponent("root.der").path, SimulatorHarness.bundleId, "Sandbox", kind,
                directory.appendingPathComponent("data.jws").path,
            ],
            environment: ProcessInfo.processInfo.environment)
    }

    @Test func applesVerifierAcceptsTheSimulatorsTransactionsAndRenewalInfo() async throws {
        try await SimulatorHarness.with { sim in
            var purchase = SimulatorStore.Purchase(
                customer: "apple-lib", bundleId: SimulatorHarness.bundleId, productId: "com.example.monthly", type: .autoRenewableSubscription)
            purchase.subscriptionGroupIdentifier = "group.premium"
            let id = try #require(await sim.store.purchase(purchase).transactionId)
            let root = sim.simulator.ca.rootDER

            let info = try await sim.client.getTransactionInfo(transactionId: id)
            let transaction = try await Self.appleVerifies(try #require(info.signedTransactionInfo), kind: "transaction", root: root)
            #expect(transaction.status == 0, "Apple's library refused the transaction: \(transaction.stderr)")
            #expect(transaction.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == id)

            let statuses = try await sim.client.getAllSubscriptionStatuses(anyTransactionId: id)
            let renewal = try #require(statuses.data?.first?.lastTransactions?.first?.signedRenewalInfo)
            let renewalInfo = try await Self.appleVerifies(renewal, kind: "renewalInfo", root: root)
            #expect(renewalInfo.status == 0, "Apple's library refused the renewal info: \(renewalInfo.stderr)")

            // The check can fail: another chain's root is refused.
            let stranger = try await Self.appleVerifies(try #require(info.signedTransactionInfo), kind: "transaction", root: try SimulatorCA().rootDER)
            #expect(stranger.status == 1 && stranger.stderr.contains("VERIFICATION_FAILURE"), "\(stranger.stderr)")
        }
    }
}
