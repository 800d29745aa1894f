import AppStoreServer
import AppStoreSimulator
import Foundation
import PostgresNIO
import Storegate
import StoregatePostgres
import Testing

/// `customers.delete`: a customer with a whole history erased, then every table searched for them.
@Suite struct CustomerErasureTests {
    static let subject = "gdpr-subject-7f3a"

    @Test func anErasedCustomerIsFoundNowhereAndApplesQuestionsAreStillAnswered() async throws {
        let receiver = WebhookReceiver()
        try await receiver.with { url in
            try await Storefront.with(slug: "erasure") { s in
                _ = try await s.result("webhooks.create", ["url": url])
                let customer = try await s.result("accounts.ensure", ["customerId": Self.subject])
                let token = try #require((customer["appAccountToken"] as? String).flatMap(UUID.init(uuidString:)))

                // A subscription and coins bought with their appAccountToken; coins without it, linked, then
                // moved to a bystander (whose event names the subject as where they came from).
                let monthly = try #require(
                    try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription(Self.subject, token: token)).originalTransactionId)
                var coins = RefundDecisioningTests.coins(Self.subject)
                coins.appAccountToken = token
                let coinsId = try #require(try await s.simulator.purchase(coins).transactionId)
                let moved = try #require(try await s.simulator.purchase(RefundDecisioningTests.coins("someone")).transactionId)
                try await s.processed(3)
                let signedMoved = try #require(try await s.sim.client.getTransactionInfo(transactionId: moved).signedTransactionInfo)
                _ = try await s.result(
                    "accounts.linkTransaction", ["bundleId": Storefront.bundleId, "customerId": Self.subject, "signedTransaction": signedMoved])
                _ = try await s.result(
                    "accounts.linkTransaction",
                    ["bundleId": Storefront.bundleId, "customerId": "bystander", "signedTransaction": signedMoved, "transfer": true])

                // A refund request answered with consumption facts, then the refund.
                try await s.simulator.requestRefund(transactionId: coinsId, reason: .unsatisfiedWithPurchase)
                try await s.processed(4)
                _ = try await s.result(
                    "refunds.reportConsumption",
                    [
                        "bundleId": Storefront.bundleId, "transactionId": coinsId, "customerConsented": true, "deliveryStatus": "DELIVERED",
                        "sampleContentProvided": false, "consumptionPercentage": 50_000, "refundPreference": "GRANT_PRORATED",
                    ])
                try await s.eventually("the consumption answer sent") {
                    let sent = try await s.result("refunds.pending", ["bundleId": Storefront.bundleId, "status": "sent"])
                    return (sent["requests"] as? [Any])?.isEmpty == false
                }
                _ = try await s.simulator.refund(transactionId: coinsId, percentage: 50_000)
                try await s.processed(5)

                // What support and the tenant added.
                _ = try await s.result("entitlements.grant", ["customerId": Self.subject, "entitlement": "premium", "days": 7, "reason": "outage"])
                _ = try await s.result("customers.setAttributes", ["customerId": Self.subject, "set": ["plan": "team", "crm": "c-991"]])
                _ = try await s.result("customers.addNote", ["customerId": Self.subject, "text": "Asked to be forgotten on 2026-11-27."])
                let feed = try await s.result("events.list", ["customerId": Self.subject])
                let events = try #require(feed["events"] as? [[String: Any]])
                #expect(events.count >= 5, "\(events.map { $0["type"] ?? "" })")
                try await receiver.wait(for: events.count)

                let schema = try TenantSchema(validating: s.tenant.tenant.storageName).sql
                let internalId = try await s.capabilities.postgres.client.withConnection { conn in
                    try await conn.first(
                        "SELECT id FROM \(unescaped: schema).customers WHERE customer_id = \(Self.subject)", as: UUID.self,
                        logger: s.capabilities.postgres.logger)
                }
                let needles = [Self.subject, token.uuidString, try #require(internalId).uuidString]
                let tables = try await s.capabilities.postgres.client.withConnection { conn in
                    try await PersonalDataScan.tables(schema: s.tenant.tenant.storageName, on: conn, logger: s.capabilities.postgres.logger)
                }
                let before = try await s.capabilities.postgres.client.withConnection { conn in
                    try await PersonalDataScan.find(needles, in: tables, on: conn, logger: s.capabilities.postgres.logger)
                }
                let held = Set(before.map { $0.table.split(separator: ".").last.map(String.init) ?? "" })
                for table in [
                    "customers", "transactions", "subscriptions", "notifications", "events", "account_links", "grants", "customer_notes",
                    "customer_attributes", "consumption_requests", "refund_outcomes", "audit_log", "metrics_cohort_members",
                ] {
                    #expect(held.contains(table), "the scan sees the customer in \(table) before the erasure (found in \(held.sorted()))")
                }

                // The coins' notifications as processed before tenant migration 27: their series not recorded.
                let unlabelled = try await s.capabilities.postgres.client.withConnection { conn in
                    try await conn.first(
                        """
                        WITH cleared AS (
                            UPDATE \(unescaped: schema).notifications SET original_transaction_id = NULL WHERE original_transaction_id = \(coinsId) RETURNING 1
                        ) SELECT count(*)::bigint FROM cleared
                        """, as: Int.self, logger: s.capabilities.postgres.logger)
                }
                #expect(unlabelled == 3, "the coins' purchase, consumption request and refund")

                let erased = try await s.result("customers.delete", ["customerId": Self.subject])
                #expect(erased["deleted"] as? Bool == true)
                let erasureId = try #require(erased["erasureId"] as? String)
                #expect(erasureId.hasPrefix("ers_"))
                #expect((erased["transactions"] as? Int ?? 0) >= 2 && erased["grants"] as? Int == 1 && erased["notes"] as? Int == 1)
                #expect(erased["attributes"] as? Int == 2 && (erased["notifications"] as? Int ?? 0) >= 3, "\(erased)")

                let after = try await s.capabilities.postgres.client.withConnection { conn in
                    try await PersonalDataScan.find(needles, in: tables, on: conn, logger: s.capabilities.postgres.logger)
                }
                #expect(after.isEmpty, "\(after)")
                let now = try await s.capabilities.postgres.client.withConnection { conn in
                    try await PersonalDataScan.tables(schema: s.tenant.tenant.storageName, on: conn, logger: s.capabilities.postgres.logger)
                }
                #expect(now == tables)

                // Apple's questions about the refunded coins are still answered from the kept facts.
                let outcomes = try await s.result("refunds.outcomes", ["bundleId": Storefront.bundleId, "transactionId": coinsId])
                let outcome = try #require((outcomes["outcomes"] as? [[String: Any]])?.first, "\(outcomes)")
                #expect(outcome["refundPercentage"] as? Int == 50_000 && outcome["customerId"] == nil)
                #expect((outcome["revoke"] as? [String: Any])?["quantity"] as? Int == 2, "half of 4 coins")
                let sent = try await s.result("refunds.pending", ["bundleId": Storefront.bundleId, "status": "sent"])
                let answer = try #require((sent["requests"] as? [[String: Any]])?.first)
                #expect((answer["sentBody"] as? [String: Any])?["consumptionPercentage"] as? Int == 50_000)
                let status = try await s.result("subscriptions.status", ["bundleId": Storefront.bundleId, "transactionId": monthly])
                #expect((status["subscriptions"] as? [[String: Any]])?.first?["customerId"] == nil, "\(status)")

                // The bystander keeps what was moved to them; the feed says an erasure happened, not whose.
                let resolved = try await s.result("accounts.resolve", ["bundleId": Storefront.bundleId, "transactionId": moved])
                #expect(resolved["customerId"] as? String == "bystander", "\(resolved)")
                let tail = try await s.result("events.list", ["types": ["customer.deleted"]])
                let deletedEvent = try #require((tail["events"] as? [[String: Any]])?.last)
                #expect(deletedEvent["customerId"] == nil && (deletedEvent["data"] as? [String: Any])?["erasureId"] as? String == erasureId)
                let audit = try await s.result("audit.list", ["action": "customer."])
                let entries = try #require(audit["entries"] as? [[String: Any]])
                #expect(entries.contains { $0["action"] as? String == "customer.delete" })
                #expect(entries.filter { $0["action"] as? String == "customer.addNote" }.allSatisfy { "\($0)".contains(erasureId) }, "\(entries)")

                // Idempotent; the same id later is a new customer, and Apple's next renewal arrives unlinked.
                let again = try await s.result("customers.delete", ["customerId": Self.subject])
                #expect(again["deleted"] as? Bool == false && again["erasureId"] == nil)
                let reborn = try await s.result("accounts.ensure", ["customerId": Self.subject])
                #expect((reborn["appAccountToken"] as? String).flatMap(UUID.init(uuidString:)) != token)
                _ = try await s.simulator.renew(originalTransactionId: monthly)
                try await s.processed(6)
                let renewed = try await s.result("subscriptions.status", ["bundleId": Storefront.bundleId, "transactionId": monthly])
                #expect((renewed["subscriptions"] as? [[String: Any]])?.first?["customerId"] == nil, "\(renewed)")
                let mine = try await s.result("subscriptions.status", ["customerId": Self.subject])
                #expect((mine["subscriptions"] as? [Any])?.isEmpty == true, "\(mine)")
            }
        }
    }

    /// Another tenant's erasure of the same customer id erases its own customer, never this one's.
    @Test func anErasureStaysInItsTenant() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "erase-a", bundleId: "com.example.erase.a")
            let b = try await Fixtures.tenant(capabilities, slug: "erase-b", bundleId: "com.example.erase.b")
            try await TestServer.with(capabilities) { server in
                for key in [a.apiKey, b.apiKey] { _ = try await server.call("accounts.ensure", ["customerId": "shared"], apiKey: key) }
                let erased = try await server.call("customers.delete", ["customerId": "shared"], apiKey: b.apiKey)
                #expect((erased["result"] as? [String: Any])?["deleted"] as? Bool == true)
                let stillThere = try await server.call("customers.attributes", ["customerId": "shared"], apiKey: a.apiKey)
                #expect(stillThere["result"] != nil, "\(stillThere)")
                let gone = try await server.call("customers.attributes", ["customerId": "shared"], apiKey: b.apiKey)
                #expect((gone["error"] as? [String: Any])?["code"] as? Int == 1004, "\(gone)")
            }
        }
    }
}
