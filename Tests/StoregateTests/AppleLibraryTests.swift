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

    /// Each of the four kinds of notification payload (`data`, `summary`, `externalPurchaseToken`, `appData`),
    /// as a tenant gets them from the notification history, and the app transaction pass Apple's verifier.
    @Test func applesVerifierAcceptsEveryKindOfNotificationAndTheAppTransaction() async throws {
        try await SimulatorHarness.with { sim in
            let bundleId = SimulatorHarness.bundleId
            var purchase = SimulatorStore.Purchase(
                customer: "apple-lib", bundleId: bundleId, productId: "com.example.monthly", type: .autoRenewableSubscription)
            purchase.subscriptionGroupIdentifier = "group.premium"
            let bought = try await sim.simulator.purchase(purchase)
            try await sim.simulator.unreportedExternalPurchaseToken(bundleId: bundleId)
            try await sim.simulator.externalPurchaseToken(bundleId: bundleId, subtype: .created, tokenType: "SERVICES")
            try await sim.simulator.rescindConsent(customer: "apple-lib", bundleId: bundleId)
            _ = try await sim.client.extendRenewalDateForAllActiveSubscribers(
                request: MassExtendRenewalDateRequest(
                    extendByDays: 3, extendReasonCode: .customerSatisfaction, requestIdentifier: "apple-lib", productId: "com.example.monthly"))
            let history = try await sim.client.getNotificationHistory(
                paginationToken: nil, request: NotificationHistoryRequest(startDate: Timestamp(Date() - 3600), endDate: Timestamp(Date() + 60)))
            let root = sim.simulator.ca.rootDER
            var verified: [String] = []
            for item in history.notificationHistory ?? [] {
                let result = try await Self.appleVerifies(try #require(item.signedPayload), kind: "notification", root: root)
                #expect(result.status == 0, "Apple's library refused a notification: \(result.stderr)")
                verified.append(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            #expect(
                Set(verified) == ["SUBSCRIBED", "EXTERNAL_PURCHASE_TOKEN", "RESCIND_CONSENT", "RENEWAL_EXTENDED", "RENEWAL_EXTENSION"], "\(verified)")

            let appTransaction = try await sim.client.getAppTransactionInfo(anyTransactionId: try #require(bought.transactionId))
            let result = try await Self.appleVerifies(try #require(appTransaction.signedAppTransactionInfo), kind: "appTransaction", root: root)
            #expect(result.status == 0, "Apple's library refused the app transaction: \(result.stderr)")
        }
    }
}
