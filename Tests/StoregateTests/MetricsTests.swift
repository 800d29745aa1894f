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

    /// Each customer's (an account token's) purchases over four months, across several series of theirs.
    @Test func cohortsAndARPUAreWorkedOutByHand() async throws {
        try await Storefront.with(slug: "cohorts") { s in
            _ = try await s.result(
                "catalog.set",
                [
                    "products": [
                        Self.product("com.example.monthly", "Auto-Renewable Subscription"),
                        Self.product("com.example.annual", "Auto-Renewable Subscription"), Self.product("com.example.lifetime", "Non-Consumable"),
                    ],
                    "entitlements": [["name": "pro", "description": "Everything", "productIds": ["com.example.monthly", "com.example.annual"]]],
                ])
            func token(_ customer: String) async throws -> UUID {
                try #require(UUID(uuidString: try await s.result("accounts.ensure", ["customerId": customer])["appAccountToken"] as? String ?? ""))
            }
            let (a, b, c, d, e) = (try await token("a"), try await token("b"), try await token("c"), try await token("d"), try await token("e"))
            // a: a monthly (990 USD, 30 days) bought on August 10th, September 9th and October 9th: subscribed August to November 8th.
            for date in ["2026-08-10", "2026-09-09", "2026-10-09"] {
                var monthly = Self.subscription("a", token: a)
                monthly.purchaseDate = try Self.date("\(date)T12:00:00Z")
                _ = try await s.simulator.purchase(monthly)
            }
            // b: an annual in Germany (4990 EUR) on August 20th: subscribed every month since.
            var annual = Self.subscription("b", token: b, product: "com.example.annual", days: 365)
            (annual.storefront, annual.currency, annual.price, annual.purchaseDate) = ("DEU", "EUR", 4990, try Self.date("2026-08-20T12:00:00Z"))
            _ = try await s.simulator.purchase(annual)
            // c: a free trial of 7 days from September 28th, then a monthly from October 5th (to November 4th).
            var trial = Self.subscription("c", token: c, days: 7)
            (trial.offerType, trial.offerDiscountType, trial.purchaseDate) = (.introductoryOffer, .freeTrial, try Self.date("2026-09-28T12:00:00Z"))
            _ = try await s.simulator.purchase(trial)
            var converted = Self.subscription("c", token: c)
            converted.purchaseDate = try Self.date("2026-10-05T12:00:00Z")
            _ = try await s.simulator.purchase(converted)
            // d: a monthly on September 15th (to October 15th), refunded whole today.
            var refunded = Self.subscription("d", token: d)
            refunded.purchaseDate = try Self.date("2026-09-15T12:00:00Z")
            let refundedTransaction = try await s.simulator.purchase(refunded)
            // e: a lifetime unlock (1990 USD) on October 15th, and nothing to subscribe to.
            var lifetime = SimulatorStore.Purchase(customer: "e", bundleId: Self.bundleId, productId: "com.example.lifetime", type: .nonConsumable)
            (lifetime.appAccountToken, lifetime.price, lifetime.purchaseDate) = (e, 1990, try Self.date("2026-10-15T12:00:00Z"))
            _ = try await s.simulator.purchase(lifetime)
            _ = try await s.simulator.refund(transactionId: try #require(refundedTransaction.transactionId))
            try await s.processed(9)

            func report(_ extra: [String: Any] = [:]) async throws -> [String: Any] {
                try await s.result("metrics.cohorts", ["from": "2026-08-01T00:00:00Z", "to": "2026-11-30T00:00:00Z"].merging(extra) { $1 })
            }
            func money(_ object: [String: Any]?, _ currency: String) -> [String: Any] {
                (object?["money"] as? [[String: Any]] ?? []).first { $0["currency"] as? String == currency } ?? [:]
            }
            let thisMonth = MetricsService.calendar.dateInterval(of: .month, for: Date())!.start
            let refundMonth = ISO8601DateFormatter().string(from: thisMonth)
            let whole = try await report()
            let cohorts = try #require(whole["cohorts"] as? [[String: Any]])
            #expect(cohorts.map { $0["start"] as? String } == ["2026-08-01T00:00:00Z", "2026-09-01T00:00:00Z", "2026-10-01T00:00:00Z", "2026-11-01T00:00:00Z"])
            #expect(cohorts.map { $0["customers"] as? Int } == [2, 2, 1, 0], "a and b; c and d; e; nobody")
            let august = try #require(cohorts[0]["months"] as? [[String: Any]])
            #expect(august.prefix(4).map { $0["subscribed"] as? Int } == [2, 2, 2, 2], "a until November 8th, b all year")
            #expect(august.prefix(4).map { $0["monthsLater"] as? Int } == [0, 1, 2, 3])
            #expect(august[0]["share"] as? Double == 1)
            #expect(money(august[0], "USD")["netRevenue"] as? Int == 990)
            #expect(money(august[0], "EUR")["netRevenue"] as? Int == 4990)
            #expect(money(august[0], "EUR")["netProceeds"] as? Int == 3493, "70 % of 4990")
            #expect(money(august[1], "USD")["netRevenue"] as? Int == 990)
            #expect(money(august[2], "USD")["netRevenue"] as? Int == 990)
            #expect(money(cohorts[0], "USD")["netRevenue"] as? Int == 2970, "the cohort's revenue to date")
            #expect(money(cohorts[0], "EUR")["netRevenue"] as? Int == 4990)
            let september = try #require(cohorts[1]["months"] as? [[String: Any]])
            #expect(september.prefix(3).map { $0["subscribed"] as? Int } == [2, 2, 1], "c's trial and d; c's monthly and d's last days; c until November 4th")
            #expect(september[2]["share"] as? Double == 0.5)
            #expect(money(september[0], "USD")["netRevenue"] as? Int == 990, "d's; c's trial cost nothing")
            #expect(money(september[1], "USD")["netRevenue"] as? Int == 990, "c's monthly")
            let refundedIn = try #require(september.first { $0["start"] as? String == refundMonth })
            #expect(money(refundedIn, "USD")["netRevenue"] as? Int == -990, "the refund, in its month")
            #expect(money(cohorts[1], "USD")["netRevenue"] as? Int == 990, "990 + 990 − 990")
            let october = try #require(cohorts[2]["months"] as? [[String: Any]])
            #expect(october[0]["subscribed"] as? Int == 0, "e bought no subscription")
            #expect(october[0]["share"] as? Double == 0)
            #expect(money(october[0], "USD")["netRevenue"] as? Int == 1990)
            #expect(cohorts[3]["months"] as? [[String: Any]] != nil)

            // Every customer by month: those subscribed or charged, and the net revenue per one of them.
            let months = try #require(whole["months"] as? [[String: Any]])
            #expect(months.map { $0["activeCustomers"] as? Int } == [2, 4, 5, 3], "a b; a b c d; a b c d e; a b c")
            #expect(money(months[0], "USD")["arpu"] as? Int == 495, "990 ÷ 2")
            #expect(money(months[0], "EUR")["arpu"] as? Int == 2495, "4990 ÷ 2")
            #expect(money(months[1], "USD")["arpu"] as? Int == 495, "(990 + 990 + 0) ÷ 4")
            #expect(money(months[2], "USD")["arpu"] as? Int == 794, "(990 + 990 + 1990) ÷ 5")
            let novemberRefund = refundMonth == "2026-11-01T00:00:00Z"
            #expect(money(months[3], "USD")["arpu"] as? Int == (novemberRefund ? -330 : nil), "d's refund when made in November, −990 ÷ 3")

            // Filtered by the first purchase: Germany's; the annual's; one converted to dollars.
            let germany = try await report(["storefront": "DEU"])["cohorts"] as? [[String: Any]]
            #expect(germany?.map { $0["customers"] as? Int } == [1, 0, 0, 0])
            let annualOnly = try await report(["productIds": ["com.example.annual"]])["months"] as? [[String: Any]]
            #expect(annualOnly?.map { $0["activeCustomers"] as? Int } == [1, 1, 1, 1])
            try await s.capabilities.metrics.load(rates: try ExchangeRate.parse(csv: "date,currency,target,rate\n2026-08-01,EUR,USD,1.10\n"))
            let dollars = try await report(["convertTo": "USD"])
            let augustInDollars = ((dollars["cohorts"] as? [[String: Any]])?.first?["months"] as? [[String: Any]])?.first
            #expect((augustInDollars?["converted"] as? [String: Any])?["netRevenue"] as? Int == 6479, "990 + 4990 × 1.10")
            #expect(((dollars["months"] as? [[String: Any]])?.first?["converted"] as? [String: Any])?["arpu"] as? Int == 3240, "6479 ÷ 2, rounded")
            let refused = try await s.call("metrics.cohorts", ["from": "2026-11-30T00:00:00Z", "to": "2026-10-01T00:00:00Z"])
            #expect(((refused["error"] as? [String: Any])?["data"] as? [String: Any])?["field"] as? String == "to")

            // Made again from the stored events alone: the same cohorts.
            try await s.capabilities.metrics.rebuild(tenant: s.tenant.tenant)
            #expect(NSDictionary(dictionary: try await report()) == NSDictionary(dictionary: whole))
        }
    }
}
