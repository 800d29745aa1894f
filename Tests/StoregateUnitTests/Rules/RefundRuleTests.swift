import AppStoreServer
import Foundation
import Testing

@testable import Storegate

/// What to take back after Apple's refund decision, and what a tenant may report and set: values only.
@Suite struct RefundRuleTests {
    func outcome(
        _ type: NotificationTypeV2 = .refund, product: ProductType = .consumable, quantity: Int = 10, percentage: Int? = nil,
        revocation: RevocationType? = nil
    ) -> RefundOutcome {
        RefundOutcome(
            notificationUUID: nil, appId: UUID(), environment: .sandbox, outcome: type, transactionId: "1", originalTransactionId: "1", productId: "coins",
            productType: product, quantity: quantity, familyShared: revocation == .familyRevoke, refundPercentage: percentage, revocationType: revocation,
            revocationReason: nil, revocationDate: nil, customer: nil, signedDate: nil)
    }

    @Test func aFullRefundOfAConsumableTakesBackAllOfIt() {
        let revoke = outcome().revoke
        #expect(revoke.action == .revokeQuantity && revoke.quantity == 10 && !revoke.familyMembers)
    }

    @Test func aPartialRefundTakesBackTheFractionRoundedDown() {
        #expect(outcome(percentage: 75_000).revoke.quantity == 7, "7.5 of 10, in the customer's favour")
        #expect(outcome(quantity: 1, percentage: 50_000).revoke.quantity == 0)
        #expect(outcome(percentage: 75_000).revoke.summary == "Take back 7 of 10 (75.0% refunded).")
    }

    @Test func anythingElseLosesAccess() {
        for product in [ProductType.autoRenewableSubscription, .nonConsumable, .nonRenewingSubscription] {
            let revoke = outcome(product: product).revoke
            #expect(revoke.action == .revokeAccess && revoke.quantity == nil, "\(product)")
        }
    }

    @Test func familySharingIsRevokedForTheFamily() {
        #expect(outcome(product: .nonConsumable, revocation: .familyRevoke).revoke.familyMembers)
        #expect(outcome(.revoke, product: .autoRenewableSubscription).revoke == outcome(.revoke, product: .nonConsumable, revocation: .familyRevoke).revoke)
    }

    @Test func aDeclineChangesNothingAndAReversalRestores() {
        #expect(outcome(.refundDeclined).revoke.action == .none)
        #expect(outcome(.refundReversed).revoke.action == .restore)
    }

    @Test func aPolicySendsBetweenTenMinutesAndElevenAndAHalfHoursBeforeTheDeadline() throws {
        #expect(try RefundPolicy().validated().sendMinutesBeforeDeadline == 60)
        for minutes in [9, 691] {
            var policy = RefundPolicy()
            policy.sendMinutesBeforeDeadline = minutes
            #expect(throws: StoregateError.self) { try policy.validated() }
        }
        var policy = RefundPolicy()
        policy.declineAfterRefunds = 0
        #expect(throws: StoregateError.invalid(field: "declineAfterRefunds", reason: "must be at least 1")) { try policy.validated() }
    }

    @Test func reportedFactsFollowApplesRules() throws {
        let facts = ConsumptionFacts(customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false, consumptionPercentage: 100_001)
        #expect(throws: StoregateError.self) { try facts.validated(productType: .consumable) }
        let prorated = ConsumptionFacts(customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false, refundPreference: .grantProrated)
        #expect(throws: StoregateError.self, "a prorated refund of a consumable says how much was consumed") {
            try prorated.validated(productType: .consumable)
        }
        #expect(try prorated.validated(productType: .autoRenewableSubscription).refundPreference == .grantProrated)
        let v1 = ConsumptionFacts(customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false, playTime: 8)
        #expect(throws: StoregateError.invalid(field: "playTime", reason: "must be 0 to 7 (Apple's v1 code)")) { try v1.validated(productType: .consumable) }
    }

    @Test func theDeprecatedBodyIsMappedFromTheCurrentFacts() {
        let facts = ConsumptionFacts(
            customerConsented: true, deliveryStatus: .undeliveredServerOutage, sampleContentProvided: true, consumptionPercentage: 40_000,
            refundPreference: .decline)
        let v1 = facts.v1
        #expect(v1.consumptionStatus == ConsumptionStatus(rawValue: 2) && v1.deliveryStatus == DeliveryStatusV1(rawValue: 3))
        #expect(v1.refundPreference == RefundPreferenceV1(rawValue: 2) && v1.platform == Platform(rawValue: 1))
        #expect(
            ConsumptionFacts(customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false, consumptionPercentage: 0).v1.consumptionStatus
                == ConsumptionStatus(rawValue: 1))
        #expect(facts.v2.consumptionPercentage == 40_000 && facts.v2.refundPreference == .decline)
    }
}
