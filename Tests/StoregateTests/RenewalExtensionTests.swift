import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import Testing

/// Renewal-date extensions through the simulator, with the two-per-year rule checked before Apple is called.
@Suite struct RenewalExtensionTests {
    @Test func extendTwiceThenRefusedLocally() async throws {
        try await Storefront.with(slug: "extend") { s in
            let customer = try await s.result("accounts.ensure", ["customerId": "gus"])
            let token = try #require(UUID(uuidString: customer["appAccountToken"] as? String ?? ""))
            let bought = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("gus-device", token: token))
            let original = try #require(bought.originalTransactionId)
            try await s.processed(1)
            let expires = try #require(bought.expiresDate?.date)

            for (field, value) in [("extendByDays", 0), ("extendByDays", 91), ("extendReasonCode", 4)] {
                var params: [String: Any] = ["bundleId": Storefront.bundleId, "originalTransactionId": original, "extendByDays": 7, "extendReasonCode": 3]
                params[field] = value
                let refused = try await s.call("subscriptions.extendRenewalDate", params)
                #expect(((refused["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == field)
            }
            let first = try await s.result(
                "subscriptions.extendRenewalDate",
                ["bundleId": Storefront.bundleId, "originalTransactionId": original, "extendByDays": 7, "extendReasonCode": 3])
            #expect(first["success"] as? Bool == true)
            let effective = try #require((first["effectiveDate"] as? String).flatMap { try? Date($0, strategy: .iso8601) })
            #expect(abs(effective.timeIntervalSince(expires) - 7 * 86_400) < 1)
            let status = (try await s.result("subscriptions.status", ["customerId": "gus"])["subscriptions"] as? [[String: Any]])?.first
            #expect((status?["expiresDate"] as? String).flatMap { try? Date($0, strategy: .iso8601) }.map { abs($0.timeIntervalSince(effective)) < 1 } == true)

            _ = try await s.result(
                "subscriptions.extendRenewalDate",
                ["bundleId": Storefront.bundleId, "originalTransactionId": original, "extendByDays": 30, "extendReasonCode": 1, "requestIdentifier": "second"])
            let calls = await s.store.received.filter { $0.path.hasPrefix("/inApps/v1/subscriptions/extend/") }.count
            let third = try await s.call(
                "subscriptions.extendRenewalDate",
                ["bundleId": Storefront.bundleId, "originalTransactionId": original, "extendByDays": 1, "extendReasonCode": 0])
            let error = try #require(third["error"] as? [String: Any])
            #expect(error["code"] as? Int == 1009)
            #expect(((error["data"] as? [String: Any])?["reason"] as? String)?.contains("two extensions per subscription in 365 days") == true)
            #expect(await s.store.received.filter { $0.path.hasPrefix("/inApps/v1/subscriptions/extend/") }.count == calls, "Apple was not called")
        }
    }

    @Test func massExtensionAndItsStatus() async throws {
        try await Storefront.with(slug: "extendall") { s in
            for customer in ["h1", "h2"] { try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription(customer)) }
            let bad = try await s.call(
                "subscriptions.extendAll",
                [
                    "bundleId": Storefront.bundleId, "productId": "com.example.monthly", "extendByDays": 3, "extendReasonCode": 3,
                    "storefrontCountryCodes": ["usa"],
                ])
            #expect(((bad["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "storefrontCountryCodes[0]")
            let started = try await s.result(
                "subscriptions.extendAll", ["bundleId": Storefront.bundleId, "productId": "com.example.monthly", "extendByDays": 3, "extendReasonCode": 3])
            let identifier = try #require(started["requestIdentifier"] as? String)
            let status = try await s.result(
                "subscriptions.extensionStatus", ["bundleId": Storefront.bundleId, "productId": "com.example.monthly", "requestIdentifier": identifier])
            #expect(status["complete"] as? Bool == true)
            #expect(status["succeededCount"] as? Int == 2)
            let unknown = try await s.call(
                "subscriptions.extensionStatus", ["bundleId": Storefront.bundleId, "productId": "com.example.monthly", "requestIdentifier": "nope"])
            #expect((unknown["error"] as? [String: Any])?["code"] as? Int == 1030)
        }
    }

    /// Another tenant sees none of it: not the subscriptions, outcomes or requests, and cannot act on the app.
    @Test func anotherTenantSeesNothing() async throws {
        try await Storefront.with(slug: "owner") { s in
            let customer = try await s.result("accounts.ensure", ["customerId": "ida"])
            let token = try #require(UUID(uuidString: customer["appAccountToken"] as? String ?? ""))
            let bought = try await s.simulator.purchase(AppStoreServerAPIClientTests.subscription("ida-device", token: token))
            try await s.processed(1)
            let other = try await Fixtures.tenant(s.capabilities, slug: "intruder", bundleId: "com.example.intruder")
            func asOther(_ method: String, _ params: [String: Any]) async throws -> [String: Any] {
                try await s.server.call(method, params, apiKey: other.apiKey)
            }
            let status = try await asOther("subscriptions.status", ["customerId": "ida"])
            #expect((status["error"] as? [String: Any])?["code"] as? Int == 1004)
            let byTransaction = try await asOther("subscriptions.status", ["bundleId": Storefront.bundleId, "transactionId": bought.transactionId ?? ""])
            #expect((byTransaction["error"] as? [String: Any])?["code"] as? Int == 1004)
            let extend = try await asOther(
                "subscriptions.extendRenewalDate",
                ["bundleId": Storefront.bundleId, "originalTransactionId": bought.originalTransactionId ?? "", "extendByDays": 1, "extendReasonCode": 0])
            #expect((extend["error"] as? [String: Any])?["code"] as? Int == 1004)
            let outcomes = try await asOther("refunds.outcomes", [:])
            #expect(((outcomes["result"] as? [String: Any])?["outcomes"] as? [Any])?.isEmpty == true)
            let pending = try await asOther("refunds.pending", ["bundleId": Storefront.bundleId])
            #expect((pending["error"] as? [String: Any])?["code"] as? Int == 1004)
        }
    }
}
