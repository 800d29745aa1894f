import AppStoreServer
import Foundation
import Testing

@testable import Storegate

/// The lifecycle rules that the simulator's scenarios reach only in part: paid service across gaps, the
/// commission and the estimate's rounding, and what a change of state says.
@Suite struct LifecycleRuleTests {
    static let day: TimeInterval = 86_400
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func period(_ id: String, from: TimeInterval, days: TimeInterval, price: Int64 = 990, trial: Bool = false) -> SeriesTransaction {
        SeriesTransaction(
            transactionId: id, productId: "monthly", productType: .autoRenewableSubscription, purchaseDate: start + from * day,
            expiresDate: start + (from + days) * day, price: trial ? 0 : price, currency: "USD", offerType: trial ? .introductoryOffer : nil,
            offerDiscountType: trial ? .freeTrial : nil, offerIdentifier: nil, transactionReason: id == "1" ? .purchase : .renewal, revocationDate: nil)
    }

    @Test func paidDaysCountPaidPeriodsAndStartAgainAfterAGapOverSixtyDays() {
        let trial = Self.period("1", from: 0, days: 7, trial: true)
        let year = (0..<12).map { Self.period("\($0 + 2)", from: 7 + Double($0) * 30, days: 30) }
        let next = Self.period("20", from: 7 + 360, days: 30)
        #expect(SeriesTransaction.paidDays(before: next, in: [trial] + year + [next]) == 360, "the trial does not count")
        let afterGap = Self.period("21", from: 7 + 360 + 61, days: 30)
        #expect(SeriesTransaction.paidDays(before: afterGap, in: [trial] + year + [afterGap]) == 0, "61 days without service start the count again")
        let afterShortGap = Self.period("22", from: 7 + 360 + 59, days: 30)
        #expect(SeriesTransaction.paidDays(before: afterShortGap, in: [trial] + year + [afterShortGap]) == 360)
        var refunded = year
        refunded[0].revocationDate = Self.start
        #expect(SeriesTransaction.paidDays(before: next, in: refunded + [next]) == 330, "a refunded period is not paid service")
    }

    @Test func theCommissionFollowsTheProgramTheTypeAndTheYear() {
        #expect(CommissionRule(program: .standard, productType: .autoRenewableSubscription, paidDays: 364.9) == .standard)
        #expect(CommissionRule(program: .standard, productType: .autoRenewableSubscription, paidDays: 365) == .reducedAfterFirstYear)
        #expect(CommissionRule(program: .standard, productType: .nonConsumable, paidDays: 900) == .standard)
        #expect(CommissionRule(program: .smallBusiness, productType: .consumable, paidDays: 0) == .smallBusiness)
        let money = Money(price: 9990, currency: "EUR", rule: .standard, taxBasisPoints: 1900)
        #expect(money.estimatedProceeds == 5876)
        #expect(money.commissionPercent == 30)
        #expect(Money(price: -4995, currency: "EUR", rule: .reducedAfterFirstYear, taxBasisPoints: nil).estimatedProceeds == -4246)
    }

    static func state(
        _ status: Status, autoRenew: Bool = true, product: String = "monthly", next: String = "monthly", intent: ExpirationIntent? = nil
    )
        -> SubscriptionChange.State
    {
        SubscriptionChange.State(
            status: status, productId: product, expiresDate: start + 30 * day, autoRenewStatus: autoRenew,
            renewal: .init(latestTransactionId: "1", autoRenewProductId: next, expirationIntent: intent))
    }

    @Test func aChangeOfStateSaysWhatHappenedAndWhatItImplies() {
        let kinds = { (before: SubscriptionChange.State, after: SubscriptionChange.State) in
            LifecycleRules.changes(SubscriptionChange(previous: before, current: after), newTransaction: false).map(\.kind)
        }
        #expect(kinds(Self.state(.active), Self.state(.active, autoRenew: false)) == [.subscriptionRenewalCancelled])
        #expect(kinds(Self.state(.active), Self.state(.billingGracePeriod)) == [.subscriptionBillingIssue, .subscriptionGracePeriodEntered])
        #expect(
            kinds(Self.state(.active), Self.state(.expired, autoRenew: false, intent: .billingError)) == [.subscriptionBillingIssue, .subscriptionExpired],
            "an expiry for billing implies the failure, and is no cancellation")
        #expect(
            kinds(Self.state(.active), Self.state(.expired, autoRenew: false, intent: .customerCancelled))
                == [.subscriptionRenewalCancelled, .subscriptionExpired])
        #expect(
            kinds(Self.state(.active), Self.state(.expired, autoRenew: false, intent: .customerDidNotConsentToPriceIncrease))
                == [.subscriptionPriceIncreaseRefused, .subscriptionExpired])
        #expect(kinds(Self.state(.active), Self.state(.active, next: "basic")) == [.subscriptionProductChangeScheduled])
        #expect(kinds(Self.state(.active), Self.state(.active, product: "basic", next: "basic")) == [], "a change made now is its charge's event")
        #expect(
            LifecycleRules.changes(SubscriptionChange(previous: nil, current: Self.state(.active)), newTransaction: true).isEmpty,
            "a first sighting is its charge")
        #expect(kinds(Self.state(.expired, autoRenew: false), Self.state(.active)) == [], "a return is its charge")
    }
}
