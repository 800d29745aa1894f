import AppStoreServer
import Foundation
import Storegate
import Testing

/// The daily rollup and the monthly cohorts kept as events are appended, against a rebuild and against what
/// the events say, after 10,000 random lifecycle events appended in random batches, in no order of their
/// dates (so a member's first purchase often arrives after later ones; seeded: a failure replays).
@Suite struct MetricsRollupPropertyTests {
    /// SplitMix64: a small seeded generator.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    struct Money: Encodable {
        let price: Int64
        let currency: String
        let estimatedProceeds: Int64
    }

    struct Replaced: Encodable {
        let transactionId: String
        let periodStart: Date
        let expiresDate: Date
        let price: Int64
    }

    /// The fields of `LifecycleData` the rollup reads.
    struct Data: Encodable {
        var occurredAt: Date
        var originalTransactionId = "1"
        var transactionId = "1"
        var productId: String
        var productType = "Auto-Renewable Subscription"
        var entitlements: [String] = []
        var storefront: String
        var periodType: String?
        var expiresDate: Date?
        var periodStart: Date?
        var subscribed: String?
        var reason: String?
        var money: Money?
        var extendedByDays: Int?
        var refundPercentage: Int?
        var replacedPeriod: Replaced?
        var familyShared: Bool?
    }

    static let charges: [Event.Kind] = [
        .subscriptionStarted, .subscriptionTrialStarted, .subscriptionOfferStarted, .subscriptionResubscribed, .subscriptionRenewed,
        .subscriptionTrialConverted, .subscriptionBillingRecovered, .subscriptionProductChanged, .purchaseOneTime, .purchaseConsumable,
    ]
    static let others: [Event.Kind] = [
        .subscriptionRenewalCancelled, .subscriptionRenewalEnabled, .subscriptionBillingIssue, .subscriptionGracePeriodEntered,
        .subscriptionGracePeriodEnded, .subscriptionExpired, .subscriptionProductChangeScheduled, .subscriptionPriceIncreasePending,
        .subscriptionExtended, .purchaseRefunded, .purchaseRefundReversed, .purchaseFamilyRevoked, .purchaseTransferred,
        // The raw layer and other events, which add nothing.
        .subscriptionUpdated, .purchaseCreated, .accountLinked,
    ]

    /// Customers the events are of: half of the events have one of these, half only a series.
    static let customers = (0..<150).map { _ in UUID() }

    static func event(_ random: inout SplitMix, appId: UUID) throws -> (NewEvent, revenue: (String, Int64)?) {
        let start = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01
        let occurred = start.addingTimeInterval(Double(Int.random(in: 0..<(700 * 86_400), using: &random)))
        let storefront = ["USA", "DEU", "JPN"].randomElement(using: &random)!
        let currency = ["USA": "USD", "DEU": "EUR", "JPN": "JPY"][storefront]!
        let days = [3.0, 7, 30, 365].randomElement(using: &random)!
        var data = Data(occurredAt: occurred, productId: ["monthly", "annual", "coins"].randomElement(using: &random)!, storefront: storefront)
        data.originalTransactionId = String(Int.random(in: 1...300, using: &random))
        let customer = Bool.random(using: &random) ? customers.randomElement(using: &random) : nil
        let isCharge = Int.random(in: 0..<2, using: &random) == 0
        let kind = isCharge ? charges.randomElement(using: &random)! : others.randomElement(using: &random)!
        var revenue: (String, Int64)?
        if isCharge {
            let trial = kind == .subscriptionTrialStarted
            let price = trial ? 0 : Int64.random(in: 1...30_000, using: &random)
            data.money = Money(price: price, currency: currency, estimatedProceeds: price * 7 / 10)
            revenue = (currency, price)
            if kind.rawValue.hasPrefix("subscription.") {
                data.periodType = trial ? "trial" : ["normal", "introductory", "promotional"].randomElement(using: &random)!
                data.periodStart = occurred
                data.expiresDate = occurred.addingTimeInterval(days * 86_400)
                data.subscribed = [nil, "initialBuy", "resubscribe"].randomElement(using: &random)!
                data.familyShared = Int.random(in: 0..<10, using: &random) == 0 ? true : nil
                if kind == .subscriptionProductChanged, Bool.random(using: &random) {
                    data.replacedPeriod = Replaced(
                        transactionId: "0", periodStart: occurred.addingTimeInterval(-86_400), expiresDate: occurred.addingTimeInterval(20 * 86_400),
                        price: Int64.random(in: 1...30_000, using: &random))
                }
            } else {
                data.productType = kind == .purchaseConsumable ? "Consumable" : "Non-Consumable"
            }
        } else {
            switch kind {
            case .subscriptionExpired: data.reason = ["voluntary", "billingError", "priceIncrease", nil].randomElement(using: &random)!
            case .subscriptionExtended:
                data.extendedByDays = Int.random(in: 1...90, using: &random)
                data.expiresDate = occurred.addingTimeInterval(days * 86_400)
            case .purchaseRefunded, .purchaseRefundReversed:
                let share = [100_000, 50_000].randomElement(using: &random)!
                let price = Int64.random(in: 1...30_000, using: &random) * Int64(share) / 100_000
                data.refundPercentage = share
                data.money = Money(price: kind == .purchaseRefunded ? -price : price, currency: currency, estimatedProceeds: 0)
                data.periodStart = occurred.addingTimeInterval(-86_400)
                data.expiresDate = occurred.addingTimeInterval((Bool.random(using: &random) ? 1 : -1) * days * 86_400)
            default: break
            }
        }
        return (try NewEvent(kind, appId: appId, environment: .sandbox, customer: customer, data: data), revenue)
    }

    @Test func incrementalFiguresEqualARebuildAfterTenThousandRandomEvents() async throws {
        try await TestDatabase.with { capabilities, _ in
            let (caller, _, appId) = try await Fixtures.tenant(capabilities, slug: "rollup", bundleId: "com.example.rollup")
            let tenant = caller.tenant
            var random = SplitMix(state: 0x5EED_2026)
            var revenue: [String: Int64] = [:]
            var firstCharges: [String: Date] = [:]
            var money: [(member: String, month: Date, currency: String, price: Int64)] = []
            var appended = 0
            while appended < 10_000 {
                var batch: [NewEvent] = []
                for _ in 0..<min(Int.random(in: 1...60, using: &random), 10_000 - appended) {
                    let (event, charged) = try Self.event(&random, appId: appId)
                    batch.append(event)
                    if let (currency, price) = charged { revenue[currency, default: 0] += price }
                    if let facts = try Self.cohortFacts(event) {
                        let month = MetricsService.calendar.dateInterval(of: .month, for: facts.occurred)!.start
                        if facts.charge { firstCharges[facts.member] = min(firstCharges[facts.member] ?? month, month) }
                        money.append((facts.member, month, facts.currency, facts.price))
                    }
                }
                let events = batch
                try await capabilities.persistence.inTenant(tenant) { unit in try await unit.events.append(events) }
                appended += batch.count
            }
            let far = Date(timeIntervalSince1970: 2_000_000_000)
            func figures() async throws -> [MetricsDay] {
                try await capabilities.persistence.inTenant(tenant, .read) { try await $0.metrics.days(through: far, filter: MetricsFilter()) }
            }
            func cohorts() async throws -> [CohortMonth] {
                try await capabilities.persistence.inTenant(tenant, .read) {
                    try await $0.metrics.cohorts(from: Date(timeIntervalSince1970: 0), through: far, filter: MetricsFilter())
                }
            }
            let kept = try await figures()
            let keptCohorts = try await cohorts()
            try await capabilities.metrics.rebuild(tenant: tenant)
            let rebuilt = try await figures()
            let rebuiltCohorts = try await cohorts()
            #expect(keptCohorts.count > 100)
            #expect(keptCohorts == rebuiltCohorts, "the cohorts kept as events arrived are a rebuild's")
            #expect(keptCohorts.reduce(0) { $0 + $1.customers } == Int64(firstCharges.count), "each member counted once, in one cohort")
            // A member's money from its first charge's month on (a refund before any charge has no cohort).
            var net: [String: Int64] = [:]
            for m in money where m.month >= firstCharges[m.member] ?? .distantFuture { net[m.currency, default: 0] += m.price }
            let keptNet = Dictionary(keptCohorts.map { ($0.currency, $0.netRevenue) }, uniquingKeysWith: +).filter { $0.value != 0 }
            #expect(keptNet == net.filter { $0.value != 0 })
            #expect(kept.count > 1_000)
            #expect(kept == rebuilt, "the figures kept as events arrived are a rebuild's")
            // What the events say, summed apart: every charge's price, and every period that began has ended.
            let keptRevenue = Dictionary(kept.map { ($0.currency, $0.revenue) }, uniquingKeysWith: +).filter { $0.value != 0 }
            #expect(keptRevenue == revenue)
            #expect(kept.reduce(0) { $0 + $1.activeChange } == 0)
            #expect(kept.reduce(0) { $0 + $1.trialsChange } == 0)
            #expect(kept.reduce(0) { $0 + $1.mrrChange } == 0)
        }
    }

    /// What a priced event gives the cohorts, read back from the event: its member (a customer, or its
    /// series), whether it is a charge, when, and its price (a refund's is negative). Family-shared charges
    /// give nothing.
    static func cohortFacts(_ event: NewEvent) throws -> (member: String, charge: Bool, occurred: Date, currency: String, price: Int64)? {
        guard LifecycleEvents.priced.contains(event.type) else { return nil }
        let object = try JSONSerialization.jsonObject(with: Foundation.Data(event.data.utf8)) as? [String: Any] ?? [:]
        guard let money = object["money"] as? [String: Any], object["familyShared"] as? Bool != true else { return nil }
        let refund = event.type == .purchaseRefunded || event.type == .purchaseRefundReversed
        let member = event.customer.map(\.uuidString).map { $0.lowercased() } ?? "series:\(object["originalTransactionId"] as? String ?? "")"
        let occurred = try Date(object["occurredAt"] as? String ?? "", strategy: .iso8601)
        return (member, !refund, occurred, money["currency"] as? String ?? "", (money["price"] as? NSNumber)?.int64Value ?? 0)
    }
}
