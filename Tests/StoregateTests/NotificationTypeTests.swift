import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PostgresNIO
import Storegate
import StoregatePostgres
import Testing

/// Every notification type Apple sends, from the simulator through Storegate, and the handling of the
/// types that carry no transaction: RESCIND_CONSENT, EXTERNAL_PURCHASE_TOKEN and RENEWAL_EXTENSION's summary.
@Suite struct NotificationTypeTests {
    /// How each stored notification was processed: type, subtype and error, oldest first.
    static func processing(_ s: Storefront) async throws -> [(type: String, subtype: String?, error: String?)] {
        let schema = try TenantSchema(validating: s.tenant.tenant.storageName).sql
        return try await s.capabilities.postgres.client.withConnection { conn in
            let rows = try await conn.query(
                """
                SELECT notification_type, subtype, processing_error FROM \(unescaped: schema).notifications
                WHERE processed_at IS NOT NULL ORDER BY received_at
                """, logger: s.capabilities.postgres.logger)
            var found: [(type: String, subtype: String?, error: String?)] = []
            for try await (type, subtype, error) in rows.decode((String, String?, String?).self) { found.append((type, subtype, error)) }
            return found
        }
    }

    /// The simulator sends all 23 types; Storegate verifies, stores and applies each without an error.
    @Test func allTwentyThreeTypesArriveAndAreApplied() async throws {
        try await Storefront.with(slug: "alltypes") { s in
            let sim = s.simulator
            let bundleId = Storefront.bundleId
            var monthly = AppStoreServerAPIClientTests.subscription("ann")
            monthly.familyShared = false
            let subscription = try await sim.purchase(monthly)  // SUBSCRIBED
            let original = try #require(subscription.originalTransactionId)
            let coins = try await sim.purchase(RefundDecisioningTests.coins("ann"))  // ONE_TIME_CHARGE
            let coinsId = try #require(coins.transactionId)
            try await sim.changeRenewalPreference(originalTransactionId: original, to: "com.example.yearly", upgrade: true)  // DID_CHANGE_RENEWAL_PREF
            try await sim.setAutoRenew(originalTransactionId: original, enabled: false)  // DID_CHANGE_RENEWAL_STATUS
            try await sim.setAutoRenew(originalTransactionId: original, enabled: true)
            try await sim.redeemOffer(originalTransactionId: original, offerType: .promotionalOffer, offerIdentifier: "winback")  // OFFER_REDEEMED
            try await sim.increasePrice(originalTransactionId: original, to: 1290, accepted: false)  // PRICE_INCREASE
            try await sim.failRenewal(originalTransactionId: original, gracePeriod: 3600)  // DID_FAIL_TO_RENEW
            try await sim.expireGracePeriod(originalTransactionId: original)  // GRACE_PERIOD_EXPIRED
            try await sim.renew(originalTransactionId: original)  // DID_RENEW
            _ = try await s.result(
                "subscriptions.extendRenewalDate", ["bundleId": bundleId, "originalTransactionId": original, "extendByDays": 2, "extendReasonCode": 3]
            )  // RENEWAL_EXTENDED
            _ = try await s.result(
                "subscriptions.extendAll", ["bundleId": bundleId, "productId": "com.example.yearly", "extendByDays": 1, "extendReasonCode": 3]
            )  // RENEWAL_EXTENDED, RENEWAL_EXTENSION (SUMMARY)
            try await sim.advancedCommerce(originalTransactionId: original, .migration)  // MIGRATION
            try await sim.advancedCommerce(originalTransactionId: original, .priceChange(1490))  // PRICE_CHANGE
            try await sim.advancedCommerce(originalTransactionId: original, .metadataUpdate)  // METADATA_UPDATE
            try await sim.requestRefund(transactionId: coinsId)  // CONSUMPTION_REQUEST
            try await sim.declineRefund(transactionId: coinsId)  // REFUND_DECLINED
            try await sim.refund(transactionId: coinsId)  // REFUND
            try await sim.reverseRefund(transactionId: coinsId)  // REFUND_REVERSED
            var shared = AppStoreServerAPIClientTests.consumable("ann-family")
            shared.productId = "com.example.pro"
            shared.type = .nonConsumable
            shared.familyShared = true
            let family = try await sim.purchase(shared)  // ONE_TIME_CHARGE
            try await sim.revokeFamilySharing(transactionId: try #require(family.transactionId))  // REVOKE
            try await sim.expire(originalTransactionId: original)  // EXPIRED
            try await sim.unreportedExternalPurchaseToken(bundleId: bundleId)  // EXTERNAL_PURCHASE_TOKEN
            try await sim.rescindConsent(customer: "ann", bundleId: bundleId)  // RESCIND_CONSENT
            _ = try await s.result("notifications.requestTest", ["bundleId": bundleId])  // TEST

            let sent = await s.store.sentNotifications(bundleId: bundleId)
            let types = Set(sent.compactMap { $0.payload.notificationType?.rawValue })
            #expect(types == Set(NotificationTypeV2.known.map(\.rawValue)), "missing: \(Set(NotificationTypeV2.known.map(\.rawValue)).subtracting(types))")
            #expect(types.count == 23)
            try await s.processed(sent.count)
            let processed = try await Self.processing(s)
            #expect(processed.count == sent.count)
            for failed in processed where failed.error != nil { Issue.record("\(failed.type) \(failed.subtype ?? "") was not applied: \(failed.error ?? "")") }
            #expect(processed.contains { $0.type == "RENEWAL_EXTENSION" && $0.subtype == "SUMMARY" })
            #expect(processed.contains { $0.type == "PRICE_INCREASE" && $0.subtype == "PENDING" })

            // What the subscription notifications left: the upgrade, Apple's renewal terms, then the expiry.
            let state = try #require(
                (try await s.result("subscriptions.status", ["bundleId": bundleId, "transactionId": original])["subscriptions"] as? [[String: Any]])?.first)
            #expect(state["productId"] as? String == "com.example.yearly")
            #expect(state["status"] as? String == "expired")
            #expect((state["renewal"] as? [String: Any])?["price"] as? Int == 1490)
        }
    }

    /// RESCIND_CONSENT: the app transaction inside is verified, recorded against the customer, and shown by
    /// `appTransactions.get`; one signed by a stranger is not recorded, and the notification says why.
    @Test func rescindedConsentIsVerifiedRecordedAndShown() async throws {
        try await Storefront.with(slug: "consent") { s in
            let bundleId = Storefront.bundleId
            let bought = try await s.simulator.purchase(RefundDecisioningTests.coins("kid"))
            let id = try #require(bought.transactionId)
            _ = try await s.result("accounts.ensure", ["customerId": "kid-1"])
            let signed = try #require(try await s.sim.client.getAppTransactionInfo(anyTransactionId: id).signedAppTransactionInfo)
            _ = try await s.result("accounts.linkAppTransaction", ["bundleId": bundleId, "customerId": "kid-1", "signedAppTransaction": signed])
            let before = try await s.result("appTransactions.get", ["bundleId": bundleId, "transactionId": id])
            #expect(before["consentRescindedAt"] == nil)
            #expect(before["customerId"] as? String == "kid-1")

            let appTransaction = try await s.simulator.rescindConsent(customer: "kid", bundleId: bundleId)
            try await s.processed(2)
            let after = try await s.result("appTransactions.get", ["bundleId": bundleId, "transactionId": id])
            #expect(after["appTransactionId"] as? String == appTransaction.appTransactionId)
            #expect(after["consentRescindedAt"] is String)
            #expect(after["customerId"] as? String == "kid-1")

            // Apple's envelope is genuine, but the app transaction inside was signed by someone else.
            let stranger = try SimulatorCA()
            let forged = ResponseBodyV2DecodedPayload(
                notificationType: .rescindConsent, notificationUUID: UUID().uuidString.lowercased(), version: "2.0", signedDate: Timestamp(Date()),
                appData: AppData(
                    appAppleId: 1_234_567, bundleId: bundleId, environment: .sandbox,
                    signedAppTransactionInfo: try stranger.sign(
                        AppTransaction(receiptType: .sandbox, bundleId: bundleId, receiptCreationDate: Timestamp(Date()), appTransactionId: "999"))))
            var request = HTTPClientRequest(url: s.webhookURL)
            request.method = .POST
            request.body = .bytes(ByteBuffer(string: #"{"signedPayload":"\#(try s.simulator.ca.sign(forged))"}"#))
            #expect(try await HTTPClient.shared.execute(request, timeout: .seconds(30)).status == .ok, "the envelope verifies, so Apple gets its 200")
            try await s.processed(3)
            let last = try #require(try await Self.processing(s).last)
            #expect(last.type == "RESCIND_CONSENT")
            #expect(last.error?.contains("appData.signedAppTransactionInfo") == true)
            let schema = try TenantSchema(validating: s.tenant.tenant.storageName).sql
            let recorded = try await s.capabilities.postgres.client.withConnection { conn in
                try await conn.first(
                    "SELECT count(*)::bigint FROM \(unescaped: schema).app_transactions WHERE app_transaction_id = '999'", as: Int.self,
                    logger: s.capabilities.postgres.logger)
            }
            #expect(recorded == 0, "nothing recorded from unverified data")
            let listed = try #require(try await s.result("notifications.list", ["bundleId": bundleId, "limit": 1])["notifications"] as? [[String: Any]])
            #expect(listed.first?["processedAt"] is String)
            #expect((listed.first?["processingError"] as? String)?.contains("appData.signedAppTransactionInfo") == true, "the tenant sees why")
        }
    }

    /// EXTERNAL_PURCHASE_TOKEN / UNREPORTED is recorded once and listed, in the environment its ID names.
    @Test func unreportedExternalPurchaseTokensAreListed() async throws {
        try await Storefront.with(slug: "tokens") { s in
            let first = try await s.simulator.unreportedExternalPurchaseToken(bundleId: Storefront.bundleId)
            try await s.simulator.unreportedExternalPurchaseToken(bundleId: Storefront.bundleId)
            try await s.processed(2)
            let tokens = try #require(try await s.result("externalPurchaseTokens.list", ["bundleId": Storefront.bundleId])["tokens"] as? [[String: Any]])
            #expect(tokens.count == 2)
            let listed = try #require(tokens.first { $0["externalPurchaseId"] as? String == first.externalPurchaseId })
            #expect(first.externalPurchaseId?.hasPrefix("SANDBOX") == true)
            #expect(listed["environment"] as? String == "Sandbox")
            #expect(listed["subtype"] as? String == "UNREPORTED")
            #expect(listed["tokenCreationDate"] is String)
            let limited = try await s.call("externalPurchaseTokens.list", ["limit": 0])
            #expect(((limited["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "limit")
        }
    }

    /// A custom link token: CREATED with its type and expiry, then ACTIVE_TOKEN_REMINDER about the same token,
    /// kept as one token that says the latest; a redelivered notification changes nothing.
    @Test func customLinkTokensKeepTheirTypeExpiryAndLatestSubtype() async throws {
        try await Storefront.with(slug: "link-tokens") { s in
            let token = try await s.simulator.externalPurchaseToken(bundleId: Storefront.bundleId, subtype: .created, tokenType: "ACQUISITION")
            try await s.processed(1)
            func listed() async throws -> [[String: Any]] {
                try #require(try await s.result("externalPurchaseTokens.list", ["bundleId": Storefront.bundleId])["tokens"] as? [[String: Any]])
            }
            var tokens = try await listed()
            #expect(tokens.count == 1 && tokens.first?["subtype"] as? String == "CREATED", "\(tokens)")
            #expect(tokens.first?["tokenType"] as? String == "ACQUISITION" && tokens.first?["tokenExpirationDate"] is String, "\(tokens)")
            try await s.simulator.externalPurchaseToken(bundleId: Storefront.bundleId, subtype: .activeTokenReminder, token: token)
            try await s.processed(2)
            tokens = try await listed()
            #expect(tokens.count == 1 && tokens.first?["subtype"] as? String == "ACTIVE_TOKEN_REMINDER", "\(tokens)")
            #expect(tokens.first?["externalPurchaseId"] as? String == token.externalPurchaseId && tokens.first?["tokenType"] as? String == "ACQUISITION")
        }
    }

    /// A mass extension's RENEWAL_EXTENSION summary is recorded, and answers the status without calling Apple.
    @Test func massExtensionSummaryAnswersTheStatus() async throws {
        try await Storefront.with(slug: "summary") { s in
            for customer in ["m1", "m2", "m3"] { try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription(customer)) }
            var shared = AppStoreServerAPIClientTests.subscription("m4")
            shared.familyShared = true
            try await s.simulator.purchase(shared)
            try await s.processed(4)
            let started = try await s.result(
                "subscriptions.extendAll",
                ["bundleId": Storefront.bundleId, "productId": "com.example.monthly", "extendByDays": 5, "extendReasonCode": 3, "requestIdentifier": "spring"])
            #expect(started["requestIdentifier"] as? String == "spring")
            try await s.processed(4 + 3 + 1 + 1)  // three extended, one refused (family shared), the summary
            let extensionResults = try await Self.processing(s).filter { $0.type == "RENEWAL_EXTENSION" }
            #expect(extensionResults.compactMap(\.subtype).sorted() == ["FAILURE", "SUMMARY"])
            let asked = await s.store.received.filter { $0.path.hasPrefix("/inApps/v1/subscriptions/extend/mass/") && $0.method == "GET" }.count
            let status = try await s.result(
                "subscriptions.extensionStatus", ["bundleId": Storefront.bundleId, "productId": "com.example.monthly", "requestIdentifier": "spring"])
            #expect(status["complete"] as? Bool == true)
            #expect(status["succeededCount"] as? Int == 3)
            #expect(status["failedCount"] as? Int == 1)
            #expect(await s.store.received.filter { $0.path.hasPrefix("/inApps/v1/subscriptions/extend/mass/") && $0.method == "GET" }.count == asked)
        }
    }
}
