import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import Testing

/// The Advanced Commerce API's six server operations: each request exactly as Apple's documentation shows it
/// (method, path, JSON body, the App Store Server API's bearer token), answered by the simulator with the
/// notification Apple sends; `advancedCommerce.*` over RPC, checked before Apple is called, audited, safe
/// to send again with the same requestReferenceId, and Storegate's state changed by the notifications.
@Suite struct AdvancedCommerceTests {
    /// Apple's examples' requestReferenceId; each call here takes its own (Apple refuses one used for another request).
    static let reference = "932c6903-0ab8-4469-9f21-015f6fab013c"

    static func json(_ text: String) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
    }

    /// Each call's request: POST, Apple's path, application/json, the body of Apple's example (as JSON values).
    @Test func everyCallIsTheRequestApplesDocumentationShows() async throws {
        try await SimulatorHarness.with { sim in
            func subscription(_ customer: String) async throws -> String {
                try #require(await sim.simulator.purchase(AppStoreServerAPIClientTests.subscription(customer)).transactionId)
            }
            let references = (0..<6).map { _ in LowercaseUUID(UUID()) }
            var next = references.makeIterator()
            var info: AdvancedCommerceRequestInfo { AdvancedCommerceRequestInfo(requestReferenceId: next.next()!) }
            var expected: [(path: String, body: String)] = []

            var id = try await subscription("cancel")
            let cancelled = try await sim.client.cancelSubscription(
                transactionId: id, request: AdvancedCommerceSubscriptionCancelRequest(requestInfo: info, storefront: "USA"))
            expected.append(
                (
                    "/advancedCommerce/v1/subscription/cancel/\(id)",
                    #"{"requestInfo":{"requestReferenceId":"932c6903-0ab8-4469-9f21-015f6fab013c"},"storefront":"USA"}"#
                ))
            let renewal = try JSONDecoder().decode(
                JWSRenewalInfoDecodedPayload.self, from: try #require(Base64URL.decode(cancelled.signedRenewalInfo.split(separator: ".")[1])))
            #expect(renewal.autoRenewStatus == .off, "the answer shows auto-renew off")

            id = try await subscription("revoke")
            _ = try await sim.client.revokeSubscription(
                transactionId: id,
                request: AdvancedCommerceSubscriptionRevokeRequest(
                    refundReason: .legal, refundRiskingPreference: true, refundType: .full, requestInfo: info, storefront: "USA"))
            expected.append(
                (
                    "/advancedCommerce/v1/subscription/revoke/\(id)",
                    #"{"requestInfo":{"requestReferenceId":"932c6903-0ab8-4469-9f21-015f6fab013c"},"refundRiskingPreference":true,"refundReason":"LEGAL","refundType":"FULL","storefront":"USA"}"#
                ))

            id = try await subscription("refund")
            _ = try await sim.client.requestTransactionRefund(
                transactionId: id,
                request: AdvancedCommerceRequestRefundRequest(
                    currency: "USD",
                    items: [
                        AdvancedCommerceRequestRefundItem(SKU: "sku", refundReason: .legal, refundType: .full, revoke: true),
                        AdvancedCommerceRequestRefundItem(SKU: "sku", refundReason: .other, refundType: .prorated, revoke: false),
                    ], refundRiskingPreference: true, requestInfo: info, storefront: "USA"))
            expected.append(
                (
                    "/advancedCommerce/v1/transaction/requestRefund/\(id)",
                    #"{"items":[{"SKU":"sku","refundReason":"LEGAL","refundType":"FULL","revoke":true},{"SKU":"sku","refundReason":"OTHER","refundType":"PRORATED","revoke":false}],"refundRiskingPreference":true,"requestInfo":{"requestReferenceId":"932c6903-0ab8-4469-9f21-015f6fab013c"},"currency":"USD","storefront":"USA"}"#
                ))

            id = try await subscription("price")
            _ = try await sim.client.changeSubscriptionPrice(
                transactionId: id,
                request: AdvancedCommerceSubscriptionPriceChangeRequest(
                    currency: "USD",
                    items: [AdvancedCommerceSubscriptionPriceChangeItem(SKU: "AD_FREE_1M", price: 12990, dependentSKUs: ["ADVANCED_FEATURES_1M"])],
                    requestInfo: info, storefront: "USA"))
            expected.append(
                (
                    "/advancedCommerce/v1/subscription/changePrice/\(id)",
                    #"{"requestInfo":{"requestReferenceId":"932c6903-0ab8-4469-9f21-015f6fab013c"},"currency":"USD","storefront":"USA","items":[{"SKU":"AD_FREE_1M","price":12990,"dependentSKUs":["ADVANCED_FEATURES_1M"]}]}"#
                ))

            id = try await subscription("metadata")
            _ = try await sim.client.changeSubscriptionMetadata(
                transactionId: id,
                request: AdvancedCommerceSubscriptionChangeMetadataRequest(
                    items: [
                        AdvancedCommerceSubscriptionChangeMetadataItem(
                            currentSKU: "currentSKU", description: "description", displayName: "display name", effective: .immediately, SKU: "sku")
                    ], requestInfo: info))
            expected.append(
                (
                    "/advancedCommerce/v1/subscription/changeMetadata/\(id)",
                    #"{"requestInfo":{"requestReferenceId":"932c6903-0ab8-4469-9f21-015f6fab013c"},"items":[{"currentSKU":"currentSKU","effective":"IMMEDIATELY","description":"description","displayName":"display name","SKU":"sku"}]}"#
                ))

            id = try await subscription("migrate")
            _ = try await sim.client.migrateSubscription(
                transactionId: id,
                request: AdvancedCommerceSubscriptionMigrateRequest(
                    descriptors: AdvancedCommerceSubscriptionMigrateDescriptors(description: "description", displayName: "display name"),
                    items: [AdvancedCommerceSubscriptionMigrateItem(description: "description", displayName: "display name", SKU: "sku")], requestInfo: info,
                    targetProductId: "targetProductId", taxCode: "taxCode"))
            expected.append(
                (
                    "/advancedCommerce/v1/subscription/migrate/\(id)",
                    #"{"requestInfo":{"requestReferenceId":"932c6903-0ab8-4469-9f21-015f6fab013c"},"descriptors":{"description":"description","displayName":"display name"},"items":[{"SKU":"sku","description":"description","displayName":"display name"}],"targetProductId":"targetProductId","taxCode":"taxCode"}"#
                ))

            let sent = await sim.store.received.filter { $0.path.hasPrefix("/advancedCommerce/") }
            #expect(sent.count == expected.count)
            for ((request, apple), reference) in zip(zip(sent, expected), references) {
                #expect(request.method == "POST" && request.path == apple.path, "\(request.method) \(request.path)")
                #expect(request.contentType == "application/json" && request.query.isEmpty)
                let documented = apple.body.replacingOccurrences(of: Self.reference, with: reference.uuid.uuidString.lowercased())
                #expect(try JSONSerialization.jsonObject(with: request.body) as? NSDictionary == (try Self.json(documented)), "\(apple.path)")
                #expect(
                    request.bearerClaims["aud"] == "appstoreconnect-v1" && request.bearerClaims["bid"] == SimulatorHarness.bundleId, "\(request.bearerClaims)")
            }
            let kinds = await sim.store.sentNotifications(bundleId: SimulatorHarness.bundleId).compactMap { $0.payload.notificationType?.rawValue }
            #expect(
                kinds.filter { $0 != "SUBSCRIBED" } == [
                    "DID_CHANGE_RENEWAL_STATUS", "REFUND", "CONSUMPTION_REQUEST", "PRICE_CHANGE", "METADATA_UPDATE", "MIGRATION",
                ], "\(kinds)")
        }
    }

    /// Over RPC: a cancellation and a price change reach the subscription through Apple's notifications;
    /// the same requestReferenceId again changes nothing more; Apple's refusal is an AppStoreError with its
    /// code; what Storegate can check is refused before Apple is called; each call is audited.
    @Test func theMethodsCallAppleAndTheNotificationsChangeTheSubscription() async throws {
        try await Storefront.with(slug: "advanced-commerce") { s in
            let id = try #require(try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("ac-device")).originalTransactionId)
            let coins = try #require(try await s.simulator.purchase(AppStoreServerAPIClientTests.consumable("ac-device")).transactionId)
            try await s.processed(2)
            let app: [String: Any] = ["bundleId": Storefront.bundleId, "transactionId": id]
            func with(_ more: [String: Any]) -> [String: Any] { app.merging(more) { a, _ in a } }
            let reference = "5b2b5a1e-3e6f-4f7a-9a41-2f7b0c9d1e11"

            let cancelled = try await s.result("advancedCommerce.cancel", with(["requestReferenceId": reference]))
            #expect(cancelled["requestReferenceId"] as? String == reference && cancelled["autoRenewStatus"] as? Bool == false, "\(cancelled)")
            #expect(cancelled["environment"] as? String == "Sandbox" && cancelled["originalTransactionId"] as? String == id)
            try await s.processed(3)
            let again = try await s.result("advancedCommerce.cancel", with(["requestReferenceId": reference]))
            #expect(again["transactionId"] as? String == cancelled["transactionId"] as? String)
            func status() async throws -> [String: Any] {
                try #require(
                    (try await s.result("subscriptions.status", ["bundleId": Storefront.bundleId, "transactionId": id])["subscriptions"] as? [[String: Any]])?
                        .first)
            }
            #expect(try await status()["autoRenewStatus"] as? Bool == false, "DID_CHANGE_RENEWAL_STATUS applied")
            let notifications = try await s.result("notifications.list", ["bundleId": Storefront.bundleId])["notifications"] as? [[String: Any]] ?? []
            #expect(notifications.count == 3, "the same request again sent no second notification: \(notifications.count)")

            let priced = try await s.result(
                "advancedCommerce.changePrice", with(["items": [["SKU": "premium", "price": 12_990]], "currency": "USD"]))
            let generated = try #require(priced["requestReferenceId"] as? String)
            #expect(UUID(uuidString: generated) != nil && generated != reference)
            try await s.processed(4)
            #expect((try await status()["renewal"] as? [String: Any])?["price"] as? Int == 12_990, "PRICE_CHANGE applied")

            let descriptors = ["description": "Pro", "displayName": "Pro"]
            let items = [["SKU": "premium", "description": "Premium", "displayName": "Premium"]]
            let migration = with(["descriptors": descriptors, "items": items, "targetProductId": "com.example.aca", "taxCode": "C003-00-1"])
            _ = try await s.result("advancedCommerce.migrate", migration)
            try await s.processed(5)
            let twice = try await s.call("advancedCommerce.migrate", migration)
            let refusal = try #require(twice["error"] as? [String: Any], "\(twice)")
            #expect((refusal["data"] as? [String: Any])?["appleErrorCode"] as? Int == 4_000_176, "\(refusal)")

            let before = await s.store.received.count
            let custom = try await s.call(
                "advancedCommerce.requestRefund",
                [
                    "bundleId": Storefront.bundleId, "transactionId": coins, "refundRiskingPreference": false,
                    "items": [["SKU": "coins", "refundReason": "OTHER", "refundType": "CUSTOM", "revoke": false]],
                ])
            #expect(((custom["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "items[0].refundAmount", "\(custom)")
            let notASubscription = try await s.call("advancedCommerce.cancel", ["bundleId": Storefront.bundleId, "transactionId": coins])
            #expect(((notASubscription["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "transactionId", "\(notASubscription)")
            #expect(await s.store.received.count == before, "refused before Apple was called")

            _ = try await s.result(
                "advancedCommerce.revoke", with(["refundReason": "UNSATISFIED_WITH_PURCHASE", "refundType": "FULL", "refundRiskingPreference": false]))
            try await s.processed(6)
            #expect(try await status()["status"] as? String == "revoked", "REFUND applied")
            let audit = try await s.capabilities.persistence.inTenant(s.tenant.tenant, .read) { try await $0.auditLog() }
            let actions = audit.map(\.action).filter { $0.hasPrefix("apple.advancedCommerce.") }
            #expect(
                Set(actions) == [
                    "apple.advancedCommerce.cancel", "apple.advancedCommerce.changePrice", "apple.advancedCommerce.migrate", "apple.advancedCommerce.revoke",
                ], "\(actions)")
        }
    }
}
