import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import StoregatePostgres
import Testing

/// Refund requests end to end: CONSUMPTION_REQUEST → reported facts → Send Consumption Information in the
/// simulator before the deadline → REFUND → what to revoke.
@Suite struct RefundDecisioningTests {
    static func coins(_ customer: String, quantity: Int32 = 4) -> SimulatorStore.Purchase {
        var purchase = AppStoreServerAPIClientTests.consumable(customer)
        purchase.quantity = quantity
        return purchase
    }

    /// JSON re-serialized with sorted keys, to compare bodies exactly whatever their key order.
    static func canonical(_ data: Data?) -> String? {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) else { return nil }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
    }

    static func canonical(_ text: String) -> String? { canonical(Data(text.utf8)) }

    @Test func consumptionRequestAnsweredFromFactsThenProratedRefund() async throws {
        try await Storefront.with(slug: "refunds") { s in
            let bought = try await s.simulator.purchase(Self.coins("cy"))
            let id = try #require(bought.transactionId)
            try await s.processed(1)
            _ = try await s.result(
                "accounts.linkTransaction",
                [
                    "bundleId": Storefront.bundleId, "customerId": "cy",
                    "signedTransaction": try #require(try await s.sim.client.getTransactionInfo(transactionId: id).signedTransactionInfo),
                ])

            try await s.simulator.requestRefund(transactionId: id, reason: .unsatisfiedWithPurchase)
            try await s.processed(2)
            var pending = try await s.result("refunds.pending", ["bundleId": Storefront.bundleId])
            let request = try #require((pending["requests"] as? [[String: Any]])?.first, "\(pending)")
            #expect(request["transactionId"] as? String == id)
            #expect(request["status"] as? String == "pending")
            #expect(request["reason"] as? String == "UNSATISFIED_WITH_PURCHASE")
            let deadline = try #require((request["deadline"] as? String).flatMap { try? Date($0, strategy: .iso8601) })
            let requestedAt = try #require((request["requestedAt"] as? String).flatMap { try? Date($0, strategy: .iso8601) })
            #expect(abs(deadline.timeIntervalSince(requestedAt) - 12 * 3600) < 1)
            #expect(await s.store.consumptionReports[id] == nil, "nothing is sent before facts or the policy time")

            // Facts that break Apple's rules are refused, naming the field.
            let prorated = try await s.call(
                "refunds.reportConsumption",
                [
                    "bundleId": Storefront.bundleId, "transactionId": id, "customerConsented": true, "deliveryStatus": "DELIVERED",
                    "sampleContentProvided": false, "refundPreference": "GRANT_PRORATED",
                ])
            #expect(((prorated["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "consumptionPercentage")
            let tooMuch = try await s.call(
                "refunds.reportConsumption",
                [
                    "bundleId": Storefront.bundleId, "transactionId": id, "customerConsented": true, "deliveryStatus": "DELIVERED",
                    "sampleContentProvided": false, "consumptionPercentage": 100_001,
                ])
            #expect(((tooMuch["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "consumptionPercentage")

            let reported = try await s.result(
                "refunds.reportConsumption",
                [
                    "bundleId": Storefront.bundleId, "transactionId": id, "customerConsented": true, "deliveryStatus": "DELIVERED",
                    "sampleContentProvided": false, "consumptionPercentage": 25_000, "refundPreference": "GRANT_PRORATED",
                ])
            #expect(reported["pendingRequestId"] as? String == request["id"] as? String)
            try await s.eventually("the consumption report") { await s.store.consumptionReports[id] != nil }
            let expected =
                #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"consumptionPercentage":25000,"refundPreference":"GRANT_PRORATED"}"#
            #expect(Self.canonical(await s.store.consumptionReports[id]) == Self.canonical(expected), "exactly the v2 body from the reported facts")
            let put = await s.store.received.last { $0.path.hasPrefix("/inApps/v2/transactions/consumption/") }
            #expect(put?.method == "PUT")
            #expect(put?.path == "/inApps/v2/transactions/consumption/\(id)")

            // Storegate records the request as sent once Apple has answered, a moment after the simulator has the body.
            try await s.eventually("the request recorded as sent") {
                let sent = try await s.result("refunds.pending", ["bundleId": Storefront.bundleId, "status": "sent"])
                return (sent["requests"] as? [Any])?.isEmpty == false
            }
            pending = try await s.result("refunds.pending", ["bundleId": Storefront.bundleId, "status": "sent"])
            let sent = try #require((pending["requests"] as? [[String: Any]])?.first, "\(pending)")
            #expect(sent["apiVersion"] as? String == "v2")
            #expect((sent["sentBody"] as? [String: Any])?["consumptionPercentage"] as? Int == 25_000)
            let sentAt = try #require((sent["sentAt"] as? String).flatMap { try? Date($0, strategy: .iso8601) })
            #expect(sentAt < deadline, "sent before Apple's deadline")

            try await s.simulator.refund(transactionId: id, percentage: 75_000)
            try await s.processed(3)
            let outcomes = try await s.result("refunds.outcomes", ["bundleId": Storefront.bundleId, "transactionId": id])
            let outcome = try #require((outcomes["outcomes"] as? [[String: Any]])?.first, "\(outcomes)")
            #expect(outcome["outcome"] as? String == "REFUND")
            #expect(outcome["refundPercentage"] as? Int == 75_000)
            #expect(outcome["revocationType"] as? String == "REFUND_PRORATED")
            #expect(outcome["quantity"] as? Int == 4)
            #expect(outcome["customerId"] as? String == "cy")
            let revoke = outcome["revoke"] as? [String: Any]
            #expect(revoke?["action"] as? String == "revokeQuantity")
            #expect(revoke?["quantity"] as? Int == 3, "75% of 4 coins")
            let byCustomer = try await s.result("refunds.outcomes", ["customerId": "cy"])
            #expect((byCustomer["outcomes"] as? [Any])?.count == 1)

            // Apple's own records of the same refund.
            let history = try await s.result("refunds.history", ["bundleId": Storefront.bundleId, "transactionId": id])
            let refunded = (history["transactions"] as? [[String: Any]])?.first
            #expect(refunded?["transactionId"] as? String == id)
            #expect(refunded?["revocationPercentage"] as? Int == 75_000)
            let orderId = try #require(await s.store.orderId(of: id))
            let order = try await s.result("refunds.lookupOrder", ["bundleId": Storefront.bundleId, "orderId": orderId])
            #expect(order["status"] as? String == "valid")
            #expect((order["transactions"] as? [[String: Any]])?.first?["transactionId"] as? String == id)
            let missing = try await s.result("refunds.lookupOrder", ["bundleId": Storefront.bundleId, "orderId": "NOSUCHORDER"])
            #expect(missing["status"] as? String == "invalid")

            // A redelivered REFUND is acknowledged and not recorded twice.
            let sentNotifications = await s.store.sentNotifications(bundleId: Storefront.bundleId)
            #expect(sentNotifications.count == 3)
            let replay = try await s.capabilities.notifications.backfill(
                tenant: s.tenant.tenant, bundleId: Storefront.bundleId, environment: nil, startDate: Date() - 3600, endDate: Date() + 60, actor: Actor("test"))
            #expect(replay.alreadyStored == 3)
            #expect(replay.stored == 0)
            #expect((try await s.result("refunds.outcomes", ["customerId": "cy"])["outcomes"] as? [Any])?.count == 1)
        }
    }

    /// Family Sharing: Apple's REVOKE for a family member's shared subscription becomes an outcome whose
    /// instruction is revokeAccess for the family members.
    @Test func familyRevokeRevokesAccessForFamilyMembers() async throws {
        try await Storefront.with(slug: "family") { s in
            var shared = SimulatorStore.Purchase(
                customer: "kid", bundleId: Storefront.bundleId, productId: "com.example.family", type: .autoRenewableSubscription)
            shared.subscriptionGroupIdentifier = "group.family"
            shared.familyShared = true
            let id = try #require(try await s.simulator.purchase(shared).transactionId)
            try await s.processed(1)
            _ = try await s.result(
                "accounts.linkTransaction",
                [
                    "bundleId": Storefront.bundleId, "customerId": "kid",
                    "signedTransaction": try #require(try await s.sim.client.getTransactionInfo(transactionId: id).signedTransactionInfo),
                ])

            try await s.simulator.revokeFamilySharing(transactionId: id)
            try await s.processed(2)
            let outcomes = try await s.result("refunds.outcomes", ["customerId": "kid"])
            let outcome = try #require((outcomes["outcomes"] as? [[String: Any]])?.first, "\(outcomes)")
            #expect(outcome["outcome"] as? String == "REVOKE")
            #expect(outcome["revocationType"] as? String == "FAMILY_REVOKE")
            #expect(outcome["transactionId"] as? String == id)
            let revoke = try #require(outcome["revoke"] as? [String: Any])
            #expect(revoke["action"] as? String == "revokeAccess")
            #expect(revoke["familyMembers"] as? Bool == true)
        }
    }

    @Test func withoutConsentNothingIsSentAndTheReasonIsRecorded() async throws {
        try await Storefront.with(slug: "noconsent") { s in
            let bought = try await s.simulator.purchase(Self.coins("di"))
            let id = try #require(bought.transactionId)
            try await s.simulator.requestRefund(transactionId: id)
            try await s.processed(2)
            _ = try await s.result(
                "refunds.reportConsumption",
                [
                    "bundleId": Storefront.bundleId, "transactionId": id, "customerConsented": false, "deliveryStatus": "DELIVERED",
                    "sampleContentProvided": true,
                ])
            try await s.eventually("the request closed") {
                let closed = try await s.result("refunds.pending", ["bundleId": Storefront.bundleId, "status": "not_sent"])
                return (closed["requests"] as? [Any])?.isEmpty == false
            }
            let closed = try await s.result("refunds.pending", ["bundleId": Storefront.bundleId, "status": "not_sent"])
            let request = (closed["requests"] as? [[String: Any]])?.first
            #expect(request?["statusReason"] as? String == "the customer did not consent to sharing consumption data")
            #expect(request?["sentBody"] == nil)
            #expect(await s.store.consumptionReports[id] == nil, "nothing sent")
            #expect(await !s.store.received.contains { $0.path.contains("/consumption/") })
        }
    }

    /// Without reported facts the app's refund policy answers before the deadline, through the deprecated v1
    /// API when configured, with the customer's account tenure; no consent in the policy means nothing is sent.
    @Test func refundPolicyAnswersBeforeTheDeadline() async throws {
        try await Storefront.with(slug: "policy") { s in
            let bad = try await s.call("refunds.setPolicy", ["bundleId": Storefront.bundleId, "sendMinutesBeforeDeadline": 5])
            #expect(((bad["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "sendMinutesBeforeDeadline")
            let policy = try await s.result(
                "refunds.setPolicy",
                [
                    "bundleId": Storefront.bundleId, "consumptionApi": "v1", "sendMinutesBeforeDeadline": 30, "customerConsented": true,
                    "refundPreference": "DECLINE",
                ])
            #expect(policy["consumptionApi"] as? String == "v1")

            _ = try await s.result("accounts.ensure", ["customerId": "ed"])
            let bought = try await s.simulator.purchase(Self.coins("ed"))
            let id = try #require(bought.transactionId)
            _ = try await s.result(
                "accounts.linkTransaction",
                [
                    "bundleId": Storefront.bundleId, "customerId": "ed",
                    "signedTransaction": try #require(try await s.sim.client.getTransactionInfo(transactionId: id).signedTransactionInfo),
                ])
            try await s.simulator.requestRefund(transactionId: id)
            try await s.processed(2)
            let request = try #require(
                try await s.capabilities.refunds.requests(tenant: s.tenant.tenant, bundleId: Storefront.bundleId, status: .pending, limit: 1).first)

            // Too early: the job waits for the policy time, 30 minutes before the deadline.
            let early = try await s.capabilities.refunds.answer(
                tenantId: s.tenant.tenant.id, requestId: try #require(UUID(uuidString: request.id)), now: request.deadline - 3600)
            #expect(early == .retry(at: request.deadline - 1800, reason: "waiting for facts"))
            let onTime = try await s.capabilities.refunds.answer(
                tenantId: s.tenant.tenant.id, requestId: try #require(UUID(uuidString: request.id)), now: request.deadline - 1700)
            #expect(onTime == .done)
            let expected = """
                {"customerConsented":true,"consumptionStatus":0,"platform":1,"sampleContentProvided":false,"deliveryStatus":0,"accountTenure":1,\
                "playTime":0,"lifetimeDollarsRefunded":0,"lifetimeDollarsPurchased":0,"userStatus":0,"refundPreference":2}
                """
            let sent = await s.store.consumptionReports[id]
            #expect(Self.canonical(sent) == Self.canonical(expected), "\(String(decoding: sent ?? Data(), as: UTF8.self))")
            #expect(await s.store.received.last?.path == "/inApps/v1/transactions/consumption/\(id)")

            // Past the deadline a request without facts is closed as expired.
            let late = try await s.simulator.purchase(Self.coins("ed"))
            try await s.simulator.requestRefund(transactionId: late.transactionId ?? "")
            try await s.processed(4)
            let second = try #require(
                try await s.capabilities.refunds.requests(tenant: s.tenant.tenant, bundleId: Storefront.bundleId, status: .pending, limit: 1).first)
            #expect(
                try await s.capabilities.refunds.answer(
                    tenantId: s.tenant.tenant.id, requestId: try #require(UUID(uuidString: second.id)), now: second.deadline + 1) == .done)
            let expired = try await s.capabilities.refunds.requests(tenant: s.tenant.tenant, bundleId: Storefront.bundleId, status: .expired, limit: 5)
            #expect(expired.map(\.id) == [second.id])
        }
    }
}

extension RefundDecisioningTests {
    /// Apple rate-limits the answer: the client honours Retry-After, the job is rescheduled when its retries
    /// run out, and the facts still arrive before the deadline.
    @Test func rateLimitedAnswersAreRetried() async throws {
        try await Storefront.with(slug: "ratelimit") { s in
            let bought = try await s.simulator.purchase(Self.coins("jo"))
            let id = try #require(bought.transactionId)
            try await s.simulator.requestRefund(transactionId: id)
            try await s.processed(2)
            await s.store.inject(.rateLimited(retryAfter: .milliseconds(300)), times: 5)
            _ = try await s.result(
                "refunds.reportConsumption",
                [
                    "bundleId": Storefront.bundleId, "transactionId": id, "customerConsented": true, "deliveryStatus": "UNDELIVERED_SERVER_OUTAGE",
                    "sampleContentProvided": false,
                ])
            try await s.eventually("the consumption report after the rate limit") { await s.store.consumptionReports[id] != nil }
            #expect(await s.store.pendingFaults == 0)
            let puts = await s.store.received.filter { $0.path == "/inApps/v2/transactions/consumption/\(id)" }
            #expect(puts.count == 1, "refused calls are not recorded; the one accepted is")
            try await s.eventually("the request recorded as sent") {
                let sent = try await s.result("refunds.pending", ["bundleId": Storefront.bundleId, "status": "sent"])
                return (sent["requests"] as? [Any])?.isEmpty == false
            }
            let sent = try await s.result("refunds.pending", ["bundleId": Storefront.bundleId, "status": "sent"])
            let request = (sent["requests"] as? [[String: Any]])?.first
            #expect((request?["attempts"] as? Int ?? 0) >= 2, "the job ran again after the client's retries ran out")
            #expect((request?["lastError"] as? String)?.contains("429") == true)
        }
    }
}
