import AppStoreServer
import Foundation
import Testing

@testable import Storegate

/// Which retention rule holds for Apple's request: each condition alone, over values, no database.
@Suite struct RetentionRuleTests {
    let now = Subscriptions.now

    func request(productId: String = "com.example.monthly", locale: String = "en-US") -> DecodedRealtimeRequestBody {
        DecodedRealtimeRequestBody(
            originalTransactionId: "1000", appAppleId: 1, productId: productId, userLocale: locale, requestIdentifier: LowercaseUUID(UUID()),
            signedDate: Timestamp(now), environment: .sandbox)
    }

    func facts(promotional: Int = 0, retention: Int = 0, refunds: Int = 0, requests: Int = 0, firstBought: TimeInterval = 20) -> RetentionFacts {
        RetentionFacts(
            appAccountToken: nil, firstPurchaseDate: now - firstBought * Subscriptions.day, promotionalOffersRedeemed: promotional,
            retentionOffersRedeemed: retention, refunds: refunds, consumptionRequests: requests)
    }

    func holds(
        _ conditions: RetentionConditions, _ subscription: Subscription = Subscriptions.subscription(), request: DecodedRealtimeRequestBody? = nil,
        facts: RetentionFacts? = nil
    ) -> Bool {
        conditions.hold(request: request ?? self.request(), subscription: SubscriptionState(subscription, now: now), facts: facts ?? self.facts(), now: now)
    }

    @Test func noConditionsAlwaysHold() { #expect(holds(RetentionConditions())) }

    @Test func productIds() {
        #expect(holds(RetentionConditions(productIds: ["com.example.monthly", "x"])))
        #expect(!holds(RetentionConditions(productIds: ["com.example.yearly"])))
    }

    @Test func aLanguageHoldsForEveryRegionAndARegionForItselfOnly() {
        #expect(holds(RetentionConditions(locales: ["en"]), request: request(locale: "en-GB")))
        #expect(holds(RetentionConditions(locales: ["en-US"]), request: request(locale: "en_US")), "a device's underscore")
        #expect(!holds(RetentionConditions(locales: ["en-US"]), request: request(locale: "en-GB")))
        #expect(!holds(RetentionConditions(locales: ["en"]), request: request(locale: "fr-FR")))
    }

    @Test func billingRetryCountsTheGracePeriod() {
        let retrying = Subscriptions.subscription(.billingRetry, expiresIn: -60)
        let grace = Subscriptions.subscription(.billingGracePeriod, expiresIn: -60, grace: Subscriptions.day)
        #expect(holds(RetentionConditions(billingRetry: true), retrying) && holds(RetentionConditions(billingRetry: true), grace))
        #expect(!holds(RetentionConditions(billingRetry: true)) && holds(RetentionConditions(billingRetry: false)))
    }

    @Test func tenureInWholeDays() {
        #expect(holds(RetentionConditions(minTenureDays: 20)) && !holds(RetentionConditions(minTenureDays: 21)))
        #expect(holds(RetentionConditions(maxTenureDays: 20)) && !holds(RetentionConditions(maxTenureDays: 19)))
    }

    @Test func aPromotionalOfferRedeemedInTheHistoryOrForTheNextRenewal() {
        let offered = RetentionConditions(offerRedeemed: true)
        #expect(holds(offered, facts: facts(promotional: 1)))
        #expect(holds(offered, Subscriptions.subscription(offer: .promotionalOffer), facts: facts()))
        var terms = RenewalTerms(JWSRenewalInfoDecodedPayload())
        terms.offerType = .promotionalOffer
        #expect(holds(offered, Subscriptions.subscription(renewal: terms)), "accepted for the next renewal")
        #expect(!holds(offered) && holds(RetentionConditions(offerRedeemed: false)))
    }

    @Test func aRetentionOfferIsNotAPromotionalOne() {
        #expect(!holds(RetentionConditions(offerRedeemed: true), Subscriptions.subscription(offer: .retentionOffer), facts: facts(retention: 1)))
        #expect(holds(RetentionConditions(retentionOfferRedeemed: true), facts: facts(retention: 1)))
        #expect(holds(RetentionConditions(retentionOfferRedeemed: true), Subscriptions.subscription(offer: .retentionOffer)))
        var terms = RenewalTerms(JWSRenewalInfoDecodedPayload())
        terms.offerType = .retentionOffer
        #expect(!holds(RetentionConditions(retentionOfferRedeemed: false), Subscriptions.subscription(renewal: terms)), "taken for the next renewal")
        #expect(holds(RetentionConditions(retentionOfferRedeemed: false), facts: facts(promotional: 2)))
    }

    @Test func refundsAndConsumptionRequests() {
        #expect(holds(RetentionConditions(refunded: true), facts: facts(refunds: 1)) && !holds(RetentionConditions(refunded: true)))
        #expect(holds(RetentionConditions(consumptionRequested: true), facts: facts(requests: 2)) && holds(RetentionConditions(consumptionRequested: false)))
    }

    @Test func aConditionOnFactsDoesNotHoldWithoutThem() {
        let conditions = RetentionConditions(refunded: false)
        #expect(conditions.needsFacts && !RetentionConditions(productIds: ["x"], billingPlanType: "MONTHLY").needsFacts)
        #expect(!conditions.hold(request: request(), subscription: SubscriptionState(Subscriptions.subscription(), now: now), facts: nil, now: now))
    }

    @Test func theBillingPlanOfDataFromBefore2026IsBilledUpFront() {
        #expect(holds(RetentionConditions(billingPlanType: "BILLED_UPFRONT")) && !holds(RetentionConditions(billingPlanType: "MONTHLY")))
        #expect(holds(RetentionConditions(billingPlanType: "MONTHLY"), Subscriptions.committed()))
    }

    @Test func whetherACommitmentRenews() {
        #expect(holds(RetentionConditions(commitmentRenews: false), Subscriptions.committed(renews: false)))
        #expect(!holds(RetentionConditions(commitmentRenews: false), Subscriptions.committed(renews: true)))
        #expect(!holds(RetentionConditions(commitmentRenews: false)), "a standard subscription holds neither")
        #expect(!holds(RetentionConditions(commitmentRenews: true)))
    }

    @Test func monthsLeftInACommitment() {
        #expect(holds(RetentionConditions(maxCommitmentMonthsLeft: 2), Subscriptions.committed(month: 10)))
        #expect(!holds(RetentionConditions(maxCommitmentMonthsLeft: 2), Subscriptions.committed(month: 9)))
        #expect(holds(RetentionConditions(maxCommitmentMonthsLeft: 0), Subscriptions.committed(month: 12)))
        #expect(!holds(RetentionConditions(maxCommitmentMonthsLeft: 11)), "a standard subscription has no months left")
    }

    @Test func everyConditionMustHold() {
        let conditions = RetentionConditions(productIds: ["com.example.yearly"], billingPlanType: "MONTHLY", commitmentRenews: false)
        #expect(holds(conditions, Subscriptions.committed(renews: false), request: request(productId: "com.example.yearly")))
        #expect(!holds(conditions, Subscriptions.committed(renews: false), request: request(productId: "com.example.monthly")))
    }

    // MARK: Rules as set

    static let answer = RetentionAnswer(message: RetentionMessageAnswer(messageIdentifier: UUID().uuidString))

    @Test func rulesNeedExactlyOneAnswerAndUniqueNames() throws {
        #expect(try [RetentionRule(name: "a", answer: Self.answer)].validated().count == 1)
        #expect(throws: StoregateError.invalid(field: "rules[0].answer", reason: "must have exactly one of message, alternateProduct, promotionalOffer")) {
            try [RetentionRule(name: "a", answer: RetentionAnswer())].validated()
        }
        #expect(throws: StoregateError.invalid(field: "rules[1].name", reason: "is the name of an earlier rule")) {
            try [RetentionRule(name: "a", answer: Self.answer), RetentionRule(name: "a", answer: Self.answer)].validated()
        }
    }

    @Test func tenureBoundsInOrderAndLocalesThatAreLocales() {
        #expect(throws: StoregateError.invalid(field: "rules[0].when.maxTenureDays", reason: "must not be below minTenureDays")) {
            try [RetentionRule(name: "a", when: RetentionConditions(minTenureDays: 9, maxTenureDays: 3), answer: Self.answer)].validated()
        }
        #expect(throws: StoregateError.self) {
            try [RetentionRule(name: "a", when: RetentionConditions(locales: ["english"]), answer: Self.answer)].validated()
        }
    }

    @Test func aBillingPlanConditionIsOneOfApples() {
        #expect(throws: StoregateError.self) {
            try [RetentionRule(name: "a", when: RetentionConditions(billingPlanType: "YEARLY"), answer: Self.answer)].validated()
        }
        #expect(throws: StoregateError.self) {
            try [RetentionRule(name: "a", when: RetentionConditions(maxCommitmentMonthsLeft: -1), answer: Self.answer)].validated()
        }
    }

    @Test func atMostFiftyRules() throws {
        let rules = (0...RetentionRule.maxCount).map { RetentionRule(name: "r\($0)", answer: Self.answer) }
        #expect(throws: StoregateError.self) { try rules.validated() }
        #expect(try Array(rules.dropLast()).validated().count == RetentionRule.maxCount)
    }
}
