import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import Testing

/// Monthly subscriptions with a 12-month commitment, each path of Apple's "Managing the life cycle of
/// monthly subscriptions with a 12-month commitment" played by the simulator and read back through
/// `subscriptions.status`, `entitlements.list`, `events.list` and the console; the simulator's signed
/// payloads decoded by Apple's Python library into the values Storegate reports.
@Suite struct CommitmentTests {
    static let monthlyPrice: Int64 = 10_990

    /// A commitment bought by `customer` (whose appAccountToken it carries).
    static func buy(_ s: Storefront, _ customer: String) async throws -> String {
        let token = try #require(UUID(uuidString: try await s.result("accounts.ensure", ["customerId": customer])["appAccountToken"] as? String ?? ""))
        var purchase = AppStoreServerAPIClientTests.subscription("\(customer)-device", token: token)
        purchase.productId = "com.example.yearly"
        purchase.billingPlanType = .monthly
        purchase.price = monthlyPrice
        return try #require(try await s.simulator.purchase(purchase).originalTransactionId)
    }

    static func status(_ s: Storefront, _ customer: String) async throws -> [String: Any] {
        let result = try await s.result("subscriptions.status", ["customerId": customer])
        return try #require((result["subscriptions"] as? [[String: Any]])?.first, "\(result)")
    }

    static func commitment(_ s: Storefront, _ customer: String) async throws -> [String: Any] {
        let status = try await status(s, customer)
        return try #require(status["commitment"] as? [String: Any], "\(status)")
    }

    static func entitled(_ s: Storefront, _ customer: String) async throws -> [String] {
        ((try await s.result("entitlements.list", ["customerId": customer]))["subscriptions"] as? [[String: Any]] ?? []).compactMap {
            $0["productId"] as? String
        }
    }

    static func day(_ value: Any?) -> String { String((value as? String ?? "").prefix(10)) }

    /// A support person's browser, signed in to the console.
    static func console(_ s: Storefront) async throws -> ConsoleClient {
        _ = try await ConsoleTests.person(s, "sam@example.com", .support)
        let browser = ConsoleClient(baseURL: s.server.baseURL)
        #expect(try await browser.signIn(tenant: s.tenant.tenant.slug, email: "sam@example.com", password: ConsoleTests.password).status == 303)
        return browser
    }

    /// The customer's page in the console.
    static func page(_ browser: ConsoleClient, _ customer: String) async throws -> String {
        try await browser.get("/console/customer?id=\(customer)").text
    }

    /// The latest transaction's `commitmentInfo`, as Apple's library decodes the simulator's signed data.
    static func signedCommitment(_ s: Storefront, _ original: String) async throws -> [String: Any] {
        let statuses = try await s.sim.client.getAllSubscriptionStatuses(anyTransactionId: original)
        let signed = try #require(statuses.data?.first?.lastTransactions?.first?.signedTransactionInfo)
        let decoded = try await AppleLibraryTests.appleVerifies(signed, kind: "transactionPlan", root: s.simulator.ca.rootDER)
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let plan = try #require(try JSONSerialization.jsonObject(with: Data(decoded.stdout.utf8)) as? [String: Any])
        return try #require(plan["commitmentInfo"] as? [String: Any], "\(plan)")
    }

    /// The `subscription.updated` events' `current` states, oldest first.
    static func updates(_ s: Storefront) async throws -> [[String: Any]] {
        let result = try await s.result("events.list", ["types": ["subscription.updated"], "limit": 100])
        return (result["events"] as? [[String: Any]] ?? []).compactMap { ($0["data"] as? [String: Any])?["current"] as? [String: Any] }
    }

    /// Bought, billed monthly; cancelled in month 4: every month is still billed and access kept, the
    /// commitment does not renew, and after month 12 it expires.
    @Test func aCancelledCommitmentBillsEveryMonthThenEnds() async throws {
        try await Storefront.with(slug: "commitment-cancel") { s in
            let original = try await Self.buy(s, "ada")
            try await s.processed(1)
            var status = try await Self.status(s, "ada")
            #expect(status["billingPlanType"] as? String == "MONTHLY" && status["price"] as? Int == Int(Self.monthlyPrice), "\(status)")
            var commitment = try await Self.commitment(s, "ada")
            #expect(commitment["billingPeriodNumber"] as? Int == 1 && commitment["totalBillingPeriods"] as? Int == 12, "\(commitment)")
            #expect(commitment["price"] as? Int == Int(Self.monthlyPrice) * 12 && commitment["renews"] as? Bool == true)
            #expect(commitment["nextPeriodBills"] as? Bool == true)
            let ends = Self.day(commitment["expiresDate"])
            #expect(commitment["summary"] as? String == "month 1 of 12; billing continues until \(ends), then a new commitment starts", "\(commitment)")
            #expect((status["renewal"] as? [String: Any])?["billingPlanType"] as? String == "MONTHLY")

            for n in 2...4 {
                _ = try await s.simulator.renew(originalTransactionId: original)
                try await s.processed(n)
            }
            try await s.simulator.setAutoRenew(originalTransactionId: original, enabled: false)
            try await s.processed(5)
            status = try await Self.status(s, "ada")
            commitment = try #require(status["commitment"] as? [String: Any])
            #expect(status["status"] as? String == "active" && status["autoRenewStatus"] as? Bool == true, "the months go on being billed: \(status)")
            #expect(commitment["billingPeriodNumber"] as? Int == 4 && commitment["renews"] as? Bool == false && commitment["nextPeriodBills"] as? Bool == true)
            #expect(commitment["summary"] as? String == "month 4 of 12; billing continues until \(ends), then ends", "\(commitment)")
            #expect(try await Self.entitled(s, "ada") == ["com.example.yearly"])
            let cancelled = try #require(try await Self.updates(s).last)
            #expect(cancelled["commitmentAutoRenewStatus"] as? Bool == false && cancelled["billingPeriodNumber"] as? Int == 4, "\(cancelled)")
            #expect(cancelled["autoRenewStatus"] as? Bool == true)

            // The console says it in plain terms.
            let browser = try await Self.console(s)
            let page = try await Self.page(browser, "ada")
            #expect(page.contains("Active, month 4 of 12; billing continues until \(ends), then ends"), "\(page)")

            for n in 5...12 {
                _ = try await s.simulator.renew(originalTransactionId: original)
                try await s.processed(n + 1)
            }
            commitment = try await Self.commitment(s, "ada")
            #expect(commitment["billingPeriodNumber"] as? Int == 12 && commitment["nextPeriodBills"] as? Bool == false, "\(commitment)")
            #expect(commitment["summary"] as? String == "month 12 of 12, the last; the commitment ends \(ends), then ends", "\(commitment)")
            await #expect(throws: AppStoreSimulator.ScenarioError.self, "a cancelled commitment does not renew after month 12") {
                try await s.simulator.renew(originalTransactionId: original)
            }
            try await s.simulator.expire(originalTransactionId: original)
            try await s.processed(14)
            status = try await Self.status(s, "ada")
            #expect(status["status"] as? String == "expired")
            #expect((status["commitment"] as? [String: Any])?["summary"] as? String == "ended after month 12 of 12")
            #expect(try await Self.entitled(s, "ada").isEmpty)
            #expect(try await Self.updates(s).last?["status"] as? String == "expired")
            #expect(try await Self.page(browser, "ada").contains("Expired on"))

            // Apple's library reads the simulator's signed data as Storegate does.
            let statuses = try await s.sim.client.getAllSubscriptionStatuses(anyTransactionId: original)
            let last = try #require(statuses.data?.first?.lastTransactions?.first)
            let root = s.simulator.ca.rootDER
            let transaction = try await AppleLibraryTests.appleVerifies(try #require(last.signedTransactionInfo), kind: "transactionPlan", root: root)
            #expect(transaction.status == 0, "\(transaction.stderr)")
            let plan = try #require(try JSONSerialization.jsonObject(with: Data(transaction.stdout.utf8)) as? [String: Any])
            let info = try #require(plan["commitmentInfo"] as? [String: Any])
            #expect(plan["billingPlanType"] as? String == "MONTHLY" && info["billingPeriodNumber"] as? Int == 12 && info["totalBillingPeriods"] as? Int == 12)
            #expect(info["commitmentPrice"] as? Int == Int(Self.monthlyPrice) * 12)
            let expiresMilliseconds = try #require(info["commitmentExpiresDate"] as? Int)
            #expect(Self.day(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(expiresMilliseconds) / 1000))) == ends)
            let renewal = try await AppleLibraryTests.appleVerifies(try #require(last.signedRenewalInfo), kind: "renewalPlan", root: root)
            #expect(renewal.status == 0, "\(renewal.stderr)")
            let renewalPlan = try #require(try JSONSerialization.jsonObject(with: Data(renewal.stdout.utf8)) as? [String: Any])
            #expect(renewalPlan["renewalBillingPlanType"] as? String == "MONTHLY", "\(renewalPlan)")
            #expect((renewalPlan["commitmentInfo"] as? [String: Any])?["commitmentAutoRenewStatus"] as? Int == 0, "\(renewalPlan)")
        }
    }

    /// A month's billing fails: no grace period, no access, until it recovers (`BILLING_RECOVERY`), which
    /// moves the commitment's end later; a failure that never recovers ends it.
    @Test func aFailedMonthEndsAccessUntilItRecovers() async throws {
        try await Storefront.with(slug: "commitment-billing") { s in
            let original = try await Self.buy(s, "bea")
            try await s.processed(1)
            _ = try await s.simulator.renew(originalTransactionId: original)
            try await s.processed(2)
            let before = try #require(try await Self.signedCommitment(s, original)["commitmentExpiresDate"] as? Int)

            try await s.simulator.failRenewal(originalTransactionId: original, gracePeriod: 16 * 86_400)
            try await s.processed(3)
            var status = try await Self.status(s, "bea")
            #expect(status["status"] as? String == "billingRetry" && status["gracePeriodExpiresDate"] == nil, "no grace period: \(status)")
            #expect(try await Self.entitled(s, "bea").isEmpty, "no access while billing is retried")
            let failed = try #require(status["commitment"] as? [String: Any])
            #expect((failed["summary"] as? String)?.hasPrefix("month 2 of 12: billing failed and Apple is retrying") == true, "\(failed)")
            #expect(failed["nextPeriodBills"] as? Bool == false)
            let browser = try await Self.console(s)
            #expect(try await Self.page(browser, "bea").contains("Payment failed in month 2 of 12: billing failed and Apple is retrying"))

            _ = try await s.simulator.renew(originalTransactionId: original)
            try await s.processed(4)
            let recovered = try await Self.commitment(s, "bea")
            #expect(recovered["billingPeriodNumber"] as? Int == 3)
            // Moved by the time the month went unpaid (milliseconds here: the simulator does not wait days).
            let after = try #require(try await Self.signedCommitment(s, original)["commitmentExpiresDate"] as? Int)
            #expect(after > before, "the commitment's end moved by the unpaid time: \(before) → \(after)")
            let reported = try #require(recovered["expiresDate"] as? String)
            #expect(reported == ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(after / 1000))), "Storegate reports the moved end")
            #expect(try await Self.entitled(s, "bea") == ["com.example.yearly"])
            #expect(try await Self.page(browser, "bea").contains("Active, month 3 of 12; billing continues until"))

            try await s.simulator.failRenewal(originalTransactionId: original)
            try await s.processed(5)
            try await s.simulator.expire(originalTransactionId: original, billingRetryExhausted: true)
            try await s.processed(6)
            status = try await Self.status(s, "bea")
            #expect(status["status"] as? String == "expired" && (status["commitment"] as? [String: Any])?["summary"] as? String == "ended after month 3 of 12")
            let states = try await Self.updates(s).map { $0["status"] as? String ?? "-" }
            #expect(states == ["active", "active", "billingRetry", "active", "billingRetry", "expired"], "\(states)")
        }
    }

    /// A refund of an earlier month revokes only that month: the commitment goes on. A refund of the month
    /// being billed ends the commitment at once.
    @Test func aRefundEndsTheCommitmentOnlyForTheMonthBeingBilled() async throws {
        try await Storefront.with(slug: "commitment-refund") { s in
            let original = try await Self.buy(s, "cal")
            let second = try #require(try await s.simulator.renew(originalTransactionId: original).transactionId)
            let third = try #require(try await s.simulator.renew(originalTransactionId: original).transactionId)
            try await s.processed(3)
            _ = try await s.simulator.refund(transactionId: second)
            try await s.processed(4)
            var status = try await Self.status(s, "cal")
            #expect(status["status"] as? String == "active" && status["latestTransactionId"] as? String == third, "an earlier month: \(status)")
            #expect((status["commitment"] as? [String: Any])?["billingPeriodNumber"] as? Int == 3)
            #expect(try await Self.entitled(s, "cal") == ["com.example.yearly"])
            #expect(try await Self.updates(s).allSatisfy { $0["status"] as? String == "active" }, "an earlier month's refund changes no state")
            let browser = try await Self.console(s)
            #expect(try await Self.page(browser, "cal").contains("Active, month 3 of 12"))

            _ = try await s.simulator.refund(transactionId: third)
            try await s.processed(5)
            status = try await Self.status(s, "cal")
            #expect(status["status"] as? String == "revoked", "\(status)")
            #expect((status["commitment"] as? [String: Any])?["summary"] as? String == "ended in month 3 of 12: that month was refunded")
            #expect(try await Self.entitled(s, "cal").isEmpty)
            #expect(try await Self.updates(s).last?["status"] as? String == "revoked")
            let page = try await Self.page(browser, "cal")
            #expect(page.contains("Refunded") && page.contains("the 12-month commitment ended in month 3 of 12"), "\(page)")
            let refunds = try await s.result("refunds.outcomes", ["customerId": "cal"])
            #expect((refunds["outcomes"] as? [[String: Any]])?.count == 2, "\(refunds)")
        }
    }

    /// "Upgrades are immediate": the commitment ends and the new plan starts at once; a downgrade waits for
    /// the commitment's end (the renewal test).
    @Test func anUpgradeEndsTheCommitmentAtOnce() async throws {
        try await Storefront.with(slug: "commitment-upgrade") { s in
            let original = try await Self.buy(s, "eve")
            _ = try await s.simulator.renew(originalTransactionId: original)
            try await s.processed(2)
            let upgraded = try await s.simulator.changeRenewalPreference(
                originalTransactionId: original, to: "com.example.pro.yearly", upgrade: true, billingPlanType: .billedUpfront, price: 199_900)
            try await s.processed(3)
            let status = try await Self.status(s, "eve")
            #expect(
                status["productId"] as? String == "com.example.pro.yearly" && status["latestTransactionId"] as? String == upgraded.transactionId, "\(status)")
            #expect(status["billingPlanType"] as? String == "BILLED_UPFRONT" && status["commitment"] == nil, "the commitment ended: \(status)")
            #expect(try await Self.entitled(s, "eve") == ["com.example.pro.yearly"])
            #expect(try await Self.updates(s).last?["productId"] as? String == "com.example.pro.yearly")
            let browser = try await Self.console(s)
            #expect(try await Self.page(browser, "eve").contains("com.example.pro.yearly"))
        }
    }

    /// After month 12 a commitment that renews starts a new one at month 1; one the customer moved to a plan
    /// billed up front renews as a standard yearly subscription.
    @Test func theEndOfACommitmentRenewsIntoANewOneOrAStandardPlan() async throws {
        try await Storefront.with(slug: "commitment-renewal") { s in
            let original = try await Self.buy(s, "dan")
            for n in 2...12 {
                _ = try await s.simulator.renew(originalTransactionId: original)
                try await s.processed(n)
            }
            let first = try #require(try await Self.commitment(s, "dan")["expiresDate"] as? String)
            _ = try await s.simulator.renew(originalTransactionId: original)
            try await s.processed(13)
            let next = try await Self.commitment(s, "dan")
            #expect(next["billingPeriodNumber"] as? Int == 1 && (next["expiresDate"] as? String ?? "") > first, "a new commitment: \(next)")
            #expect(try await Self.entitled(s, "dan") == ["com.example.yearly"])
            #expect(try await Self.updates(s).last?["billingPeriodNumber"] as? Int == 1)
            let browser = try await Self.console(s)
            #expect(try await Self.page(browser, "dan").contains("Active, month 1 of 12; billing continues until"))

            // The customer chooses to go on billed up front once this commitment ends: deferred, as a downgrade is.
            _ = try await s.simulator.changeRenewalPreference(
                originalTransactionId: original, to: "com.example.yearly", upgrade: false, billingPlanType: .billedUpfront, price: 109_900)
            try await s.processed(14)
            let chosen = try await Self.commitment(s, "dan")
            #expect(chosen["renewalBillingPlanType"] as? String == "BILLED_UPFRONT" && chosen["billingPeriodNumber"] as? Int == 1, "\(chosen)")
            #expect((chosen["summary"] as? String)?.hasSuffix("then renews as com.example.yearly, billed up front") == true, "\(chosen)")
            for n in 15...25 {
                _ = try await s.simulator.renew(originalTransactionId: original)
                try await s.processed(n)
            }
            _ = try await s.simulator.renew(originalTransactionId: original)
            try await s.processed(26)
            let status = try await Self.status(s, "dan")
            #expect(status["billingPlanType"] as? String == "BILLED_UPFRONT" && status["commitment"] == nil, "\(status)")
            #expect(status["price"] as? Int == 109_900 && status["status"] as? String == "active")
            #expect(try await Self.entitled(s, "dan") == ["com.example.yearly"])
            let standard = try #require(try await Self.updates(s).last)
            #expect(standard["billingPeriodNumber"] == nil && standard["commitmentAutoRenewStatus"] == nil, "the event shows no commitment: \(standard)")
            #expect(try await Self.page(browser, "dan").contains("Active, renews on"))
        }
    }
}
