import AppStoreServer
import Foundation
import Testing

@testable import Storegate

/// A 12-month commitment in the tenant's words, as Apple's life-cycle page has it: no database.
@Suite struct CommitmentStatusTests {
    let now = Subscriptions.now
    let end = Subscriptions.commitmentEnd

    func status(_ subscription: Subscription) throws -> CommitmentStatus {
        try #require(CommitmentStatus(SubscriptionState(subscription, now: now)))
    }

    @Test func aStandardSubscriptionHasNone() {
        #expect(CommitmentStatus(SubscriptionState(Subscriptions.subscription(plan: .billedUpfront), now: now)) == nil)
        #expect(CommitmentStatus(SubscriptionState(Subscriptions.subscription(), now: now)) == nil, "data from before 2026")
    }

    @Test func aCommitmentThatRenewsStartsANewOne() throws {
        let commitment = try status(Subscriptions.committed())
        #expect(commitment.summary == "month 4 of 12; billing continues until \(end), then a new commitment starts")
        #expect(commitment.nextPeriodBills && commitment.renews == true && commitment.price == 131_880)
    }

    @Test func aCancelledCommitmentBillsOnAndThenEnds() throws {
        let commitment = try status(Subscriptions.committed(renews: false))
        #expect(commitment.summary == "month 4 of 12; billing continues until \(end), then ends")
        #expect(commitment.nextPeriodBills, "a cancellation does not stop the remaining months")
        #expect(commitment.renews == false)
    }

    @Test func theLastMonthBillsNoMoreUnlessItRenews() throws {
        let ending = try status(Subscriptions.committed(month: 12, renews: false))
        #expect(ending.summary == "month 12 of 12, the last; the commitment ends \(end), then ends")
        #expect(!ending.nextPeriodBills)
        let renewing = try status(Subscriptions.committed(month: 12, renews: true))
        #expect(renewing.nextPeriodBills)
    }

    @Test func aCommitmentMovedToAPlanBilledUpFront() throws {
        let commitment = try status(Subscriptions.committed(plan: "BILLED_UPFRONT", into: "com.example.standard.yearly"))
        #expect(commitment.summary.hasSuffix("then renews as com.example.standard.yearly, billed up front"))
        #expect(commitment.renewalBillingPlanType == "BILLED_UPFRONT" && commitment.renewalProductId == "com.example.standard.yearly")
    }

    @Test func aCommitmentRenewingIntoAnotherProduct() throws {
        #expect(try status(Subscriptions.committed(into: "com.example.pro.yearly")).summary.hasSuffix("then a new commitment to com.example.pro.yearly starts"))
    }

    @Test func renewalInfoWithoutTheCommitmentSaysSo() throws {
        #expect(try status(Subscriptions.committed(renews: nil)).summary.hasSuffix("then Apple has not said whether it renews"))
    }

    @Test func aFailedMonthSaysAccessIsGoneUntilItRecovers() throws {
        let commitment = try status(Subscriptions.committed(.billingRetry))
        #expect(commitment.summary.hasPrefix("month 4 of 12: billing failed and Apple is retrying; no access until it recovers"))
        #expect(!commitment.nextPeriodBills)
    }

    @Test func anEndedCommitmentSaysHow() throws {
        #expect(try status(Subscriptions.committed(.revoked)).summary == "ended in month 4 of 12: that month was refunded")
        #expect(try status(Subscriptions.committed(.expired, month: 12)).summary == "ended after month 12 of 12")
    }

    @Test func aCommitmentPastItsMonthWithNoRenewalReadsAsEnded() throws {
        var subscription = Subscriptions.committed()
        subscription.expiresDate = now - 60
        #expect(try status(subscription).summary == "ended after month 4 of 12")
    }

    @Test func theCommitmentsLastPeriodIsKnown() {
        #expect(Commitment(billingPeriodNumber: 12, totalBillingPeriods: 12, expiresDate: nil, price: nil).isLastPeriod)
        #expect(!Commitment(billingPeriodNumber: 11, totalBillingPeriods: 12, expiresDate: nil, price: nil).isLastPeriod)
        #expect(!Commitment(billingPeriodNumber: nil, totalBillingPeriods: 12, expiresDate: nil, price: nil).isLastPeriod)
    }

    @Test func appleCommitmentInfoBecomesTheDomainsCommitment() {
        var transaction = JWSTransactionDecodedPayload()
        #expect(Commitment(transaction) == nil)
        transaction.commitmentInfo = TransactionCommitmentInfo(
            billingPeriodNumber: 3, commitmentExpiresDate: Timestamp(now), commitmentPrice: 119_880, totalBillingPeriods: 12)
        #expect(Commitment(transaction) == Commitment(billingPeriodNumber: 3, totalBillingPeriods: 12, expiresDate: Timestamp(now).date, price: 119_880))
        let renewal = CommitmentRenewal(
            RenewalCommitmentInfo(
                commitmentAutoRenewProductId: "p", commitmentAutoRenewStatus: .off, commitmentRenewalBillingPlanType: .billedUpfront,
                commitmentRenewalDate: Timestamp(now), commitmentRenewalPrice: 10_990))
        #expect(renewal.autoRenewStatus == false && renewal.billingPlanType == "BILLED_UPFRONT" && renewal.renewalPrice == 10_990)
    }
}
