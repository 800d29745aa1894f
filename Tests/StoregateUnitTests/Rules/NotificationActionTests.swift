import AppStoreServer
import Foundation
import Testing

@testable import Storegate

/// The table from notification type to what Storegate does with it: complete for every type this build
/// knows, and the one place refund decisions get their event.
@Suite struct NotificationActionTests {
    @Test(arguments: NotificationTypeV2.known) func everyKnownTypeHasAnEntry(_ type: NotificationTypeV2) {
        #expect(NotificationAction.lists(type), "add \(type) to NotificationAction.byType, and a test of what it does")
    }

    @Test func aTypeThisBuildDoesNotKnowIsStoredAsItComes() {
        #expect(NotificationAction(NotificationTypeV2(rawValue: "SOMETHING_NEW")) == .store)
    }

    @Test func theRefundDecisionsAreTheOutcomesRefundsOutcomesLists() {
        let decisions = NotificationTypeV2.known.filter {
            if case .refundOutcome = NotificationAction($0) { return true }
            return false
        }
        #expect(Set(decisions) == Set(RefundOutcome.outcomes))
    }

    @Test(arguments: [
        (NotificationTypeV2.refund, Event.Kind?.some(.refundGranted)), (.refundDeclined, .refundDeclined), (.refundReversed, .refundReversed), (.revoke, nil),
    ])
    func eachRefundDecisionIsEventedByItsEntry(_ type: NotificationTypeV2, _ kind: Event.Kind?) throws {
        let outcome = RefundOutcome(
            notificationUUID: nil, appId: UUID(), environment: .sandbox, outcome: type, transactionId: "1", originalTransactionId: "1", productId: "coins",
            productType: .consumable, quantity: 1, familyShared: type == .revoke, refundPercentage: nil, revocationType: nil, revocationReason: nil,
            revocationDate: nil, customer: nil, signedDate: nil)
        #expect(try Events.refund(outcome)?.type == kind)
    }

    @Test func aConsumptionRequestAndRescindedConsentHaveTheirOwnWork() {
        #expect(NotificationAction(.consumptionRequest) == .consumptionRequest)
        #expect(NotificationAction(.rescindConsent) == .consentRescinded)
        #expect(NotificationAction(.test) == .nothing)
        #expect(NotificationAction(.didRenew) == .store)
    }
}
