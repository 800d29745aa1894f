import AppStoreServer
import Foundation
import Testing

@testable import Storegate

/// What a subscription is at a moment, from what Apple signed: no database, no clock but the one given.
@Suite struct SubscriptionStateTests {
    let now = Subscriptions.now

    @Test func anActiveSubscriptionBeforeItsExpiryGrantsAccess() {
        let state = SubscriptionState(Subscriptions.subscription(), now: now)
        #expect(state.status == .active && state.grantsAccess && state.statusName == .active)
    }

    @Test func anActiveSubscriptionPastItsExpiryWithNoRenewalReadsAsExpired() {
        let state = SubscriptionState(Subscriptions.subscription(expiresIn: -60), now: now)
        #expect(state.status == .expired && !state.grantsAccess && state.statusName == .expired)
    }

    @Test func aGracePeriodGrantsAccessUntilItEnds() {
        let within = SubscriptionState(Subscriptions.subscription(.billingGracePeriod, expiresIn: -60, grace: 3 * Subscriptions.day), now: now)
        #expect(within.status == .billingGracePeriod && within.grantsAccess && within.statusName == .gracePeriod)
        let past = SubscriptionState(Subscriptions.subscription(.billingGracePeriod, expiresIn: -60, grace: -60), now: now)
        #expect(past.status == .billingRetry && !past.grantsAccess, "a grace period past its end is billing retry")
    }

    @Test func aCommitmentHasNoGracePeriod() {
        let state = SubscriptionState(Subscriptions.committed(.billingGracePeriod, grace: 3 * Subscriptions.day), now: now)
        #expect(state.status == .billingRetry && !state.grantsAccess)
    }

    @Test func billingRetryAndRevocationGrantNothing() {
        #expect(!SubscriptionState(Subscriptions.subscription(.billingRetry, expiresIn: -60), now: now).grantsAccess)
        #expect(!SubscriptionState(Subscriptions.subscription(.revoked), now: now).grantsAccess, "revoked before its expiry")
    }

    @Test func aStatusAppleAddsLaterIsUnknownAndGrantsNothing() {
        let state = SubscriptionState(Subscriptions.subscription(Status(rawValue: 9)), now: now)
        #expect(state.statusName == .unknown && !state.grantsAccess)
    }

    @Test(arguments: [
        (Status.active, "active"), (.expired, "expired"), (.billingRetry, "billingRetry"), (.billingGracePeriod, "gracePeriod"), (.revoked, "revoked"),
    ])
    func statusesHaveStoregatesNames(_ status: Status, _ name: String) {
        #expect(SubscriptionState.StatusName(status).rawValue == name)
    }

    @Test(arguments: [
        (OfferType.introductoryOffer, "introductoryOffer"), (.promotionalOffer, "promotionalOffer"), (.offerCode, "offerCode"), (.winBackOffer, "winBackOffer"),
        (.retentionOffer, "retentionOffer"),
    ])
    func offersHaveNames(_ offer: OfferType, _ name: String) {
        #expect(offer.name == name && offer.isKnown)
    }

    @Test func anOfferAppleAddsLaterHasNoNameAndKeepsItsNumber() {
        #expect(OfferType(rawValue: 6).name == nil && !OfferType(rawValue: 6).isKnown && OfferType(rawValue: 6).rawValue == 6)
    }
}
