import AppStoreServer
import AppStoreSimulator
import Foundation
import Storegate
import Testing

/// `metrics.get` over a known history driven through the simulator, against figures worked out by hand,
/// and the daily rollup made again from the stored events to the same figures.
@Suite struct MetricsTests {
    static let bundleId = Storefront.bundleId

    static func product(_ id: String, _ type: String) -> [String: Any] {
        var product: [String: Any] = ["bundleId": bundleId, "productId": id, "type": type, "displayName": id]
        if type == "Auto-Renewable Subscription" { product["subscriptionGroup"] = "group.premium" }
        return product
    }

    static func date(_ text: String) throws -> Date { try Date(text, strategy: .iso8601) }

    static func subscription(_ device: String, token: UUID, product: String = "com.example.monthly", days: Double = 30) -> SimulatorStore.Purchase {
        var purchase = SimulatorStore.Purchase(
            customer: device, bundleId: bundleId, productId: product, type: .autoRenewableSubscription, appAccountToken: token)
        purchase.subscriptionGroupIdentifier = "group.premium"
        purchase.period = days * 86_400
        return purchase
    }

    static func money(_ point: [String: Any], _ currency: String) -> [String: Any] {
        (point["money"] as? [[String: Any]] ?? []).first { $0["currency"] as? String == currency } ?? [:]
    }

    @Test func aKnownHistoryGivesTheFiguresWorkedOutByHand() async throws {
        try await Storefront.with(slug: "metrics") { s in
            _ = try await s.result(
                "catalog.set",
                [
                    "products": [
                        Self.product("com.example.monthly", "Auto-Renewable Subscription"),
                        Self.product("com.example.annual", "Auto-Renewable Subscription"), Self.product("com.example.lifetime", "Non-Consumable"),
                    ],
                    "entitlements": [["name": "pro", "description": "Monthly", "productIds": ["com.example.monthly"]]],
                ])
            let token = try #require(UUID(uuidString: try await s.result("accounts.ensure", ["customerId": "m"])["appAccountToken"] as? String ?? ""))
            // September: a monthly subscription (990 USD, 30 days) bought on the 5th.
            var september = Self.subscription("a", token: token)
            september.purchaseDate = try Self.date("2026-09-05T12:00:00Z")
            _ = try await s.simulator.purchase(september)
            // October: an annual one in Germany (4990 EUR, 365 days) on the 10th, a lifetime unlock (1990 USD) on the
            // 15th, a monthly one on the 20th (refunded whole today), a free trial of 7 days on the 28th.
            var annual = Self.subscription("b", token: token, product: "com.example.annual", days: 365)
            (annual.storefront, annual.currency, annual.price, annual.purchaseDate) = ("DEU", "EUR", 4990, try Self.date("2026-10-10T12:00:00Z"))
            _ = try await s.simulator.purchase(annual)
            var lifetime = SimulatorStore.Purchase(customer: "d", bundleId: Self.bundleId, productId: "com.example.lifetime", type: .nonConsumable)
            (lifetime.appAccountToken, lifetime.price, lifetime.purchaseDate) = (token, 1990, try Self.date("2026-10-15T12:00:00Z"))
            _ = try await s.simulator.purchase(lifetime)
            var monthly = Self.subscription("e", token: token)
            monthly.purchaseDate = try Self.date("2026-10-20T12:00:00Z")
            let refunded = try await s.simulator.purchase(monthly)
            var trial = Self.subscription("c", token: token, days: 7)
            (trial.offerType, trial.offerDiscountType, trial.purchaseDate) = (.introductoryOffer, .freeTrial, try Self.date("2026-10-28T12:00:00Z"))
            _ = try await s.simulator.purchase(trial)
            _ = try await s.simulator.refund(transactionId: try #require(refunded.transactionId))
            try await s.processed(6)

            func report(_ extra: [String: Any] = [:]) async throws -> [[String: Any]] {
                let params: [String: Any] = ["from": "2026-09-01T00:00:00Z", "to": "2026-10-31T00:00:00Z", "step": "month"].merging(extra) { $1 }
                return try await s.result("metrics.get", params)["points"] as? [[String: Any]] ?? []
            }
            let points = try await report()
            #expect(points.map { $0["start"] as? String } == ["2026-09-01T00:00:00Z", "2026-10-01T00:00:00Z"])
            let (sep, oct) = (points[0], points[1])
            #expect(sep["newSubscriptions"] as? Int == 1)
            #expect(sep["activeSubscriptions"] as? Int == 1, "September's ran past the month's end")
            #expect(Self.money(sep, "USD")["revenue"] as? Int == 990)
            #expect(Self.money(sep, "USD")["proceeds"] as? Int == 693)
            #expect(Self.money(sep, "USD")["mrr"] as? Int == 1004, "990 for 30 days is 1004.4375 a month of 30.4375 days")
            #expect(oct["newSubscriptions"] as? Int == 3, "the annual, the monthly and the trial")
            #expect(oct["trialStarts"] as? Int == 1)
            #expect(oct["purchases"] as? Int == 1)
            #expect(oct["refunds"] as? Int == 0, "the refund is today's")
            #expect(oct["paidCharges"] as? Int == 3, "the trial is free")
            #expect(oct["refundRate"] as? Double == 0)
            #expect(oct["activeSubscriptions"] as? Int == 2, "the annual and October's monthly: September's ended on October 5th")
            #expect(oct["activeTrials"] as? Int == 1, "until November 4th")
            #expect(Self.money(oct, "USD")["revenue"] as? Int == 2980, "990 + 1990")
            #expect(Self.money(oct, "USD")["mrr"] as? Int == 1004)
            #expect(Self.money(oct, "EUR")["revenue"] as? Int == 4990)
            #expect(Self.money(oct, "EUR")["mrr"] as? Int == 416, "4990 a year is 415.83 a month")
            // Today's refund, of a period that had ended: money back, nothing more ran.
            let today = ISO8601DateFormatter().string(from: Date())
            let now = try #require(try await s.result("metrics.get", ["from": today, "to": today, "step": "day"])["points"] as? [[String: Any]]).first
            #expect(now?["refunds"] as? Int == 1)
            #expect(now?["refundRate"] == nil, "nothing was charged today")
            #expect(Self.money(now ?? [:], "USD")["refunded"] as? Int == -990)
            #expect(Self.money(now ?? [:], "USD")["refundedProceeds"] as? Int == -693)

            // Filtered: Germany only; the pro entitlement's products only.
            let germany = try await report(["storefront": "DEU"])[1]
            #expect(germany["newSubscriptions"] as? Int == 1)
            #expect((germany["money"] as? [[String: Any]])?.map { $0["currency"] as? String } == ["EUR"])
            let pro = try await report(["entitlement": "pro"])[1]
            #expect(pro["newSubscriptions"] as? Int == 2)
            #expect(pro["purchases"] as? Int == 0)
            #expect(Self.money(pro, "USD")["revenue"] as? Int == 990)
            let refused = try await s.call("metrics.get", ["from": "2026-11-30T00:00:00Z", "to": "2026-10-01T00:00:00Z", "step": "day"])
            #expect(((refused["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "to")

            // In one currency at the operator's rates: each figure at its day's rate, MRR at the period's end's.
            let rates = try ExchangeRate.parse(csv: "date,currency,target,rate\n2026-09-01,EUR,USD,1.05\n2026-10-20,EUR,USD,1.10\n")
            try await s.capabilities.metrics.load(rates: rates)
            let usd = try await report(["convertTo": "USD"])[1]
            let converted = usd["converted"] as? [String: Any]
            #expect(converted?["currency"] as? String == "USD")
            #expect(converted?["revenue"] as? Int == 8220, "2980 + 4990 × 1.05 (October 10th's rate)")
            #expect(converted?["mrr"] as? Int == 1462, "1004 + 416 × 1.10 (October 31st's)")
            #expect(usd["unconverted"] as? [String] == [])
            let pounds = try await report(["convertTo": "GBP"])[1]
            #expect(pounds["unconverted"] as? [String] == ["EUR", "USD"])
            #expect(points[1]["converted"] == nil, "none asked for")

            // Made again from the stored events alone: the same figures, to the milliunit.
            let everyDay: [String: Any] = ["to": ISO8601DateFormatter().string(from: Date()), "step": "day"]
            let daily = try await report(everyDay)
            try await s.capabilities.metrics.rebuild(tenant: s.tenant.tenant)
            let rebuilt = try await report(everyDay)
            #expect(NSArray(array: rebuilt) == NSArray(array: daily))
            #expect(daily.count > 80)
        }
    }
}
