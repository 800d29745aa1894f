import Foundation
import JSONRPC
import Testing

@testable import Storegate

/// When support's grants give access, and when a failed webhook delivery is tried again: values and a clock.
@Suite struct GrantAndRetryTests {
    let now = Subscriptions.now
    let hour: TimeInterval = 3600

    func grant(starts: TimeInterval = -3600, expires: TimeInterval = 3600, revoked: Bool = false) -> Grant {
        Grant(
            id: UUID(), customer: UUID(), target: .entitlement("premium"), startsDate: now + starts, expiresDate: now + expires, reason: "an outage",
            grantedBy: "console:sam", grantedDate: now - 7200, revokedDate: revoked ? now - 60 : nil)
    }

    @Test func aGrantCountsFromItsStartUntilItsExpiry() {
        #expect(grant().grantsAccess(now: now))
        #expect(!grant(starts: 60).grantsAccess(now: now), "not yet")
        #expect(!grant(expires: 0).grantsAccess(now: now), "its expiry is not included")
        #expect(!grant(revoked: true).grantsAccess(now: now))
    }

    @Test func aGrantNamesItsProductOrItsEntitlement() {
        let app = UUID()
        let product = Grant(
            id: UUID(), customer: UUID(), target: .product(appId: app, productId: "p"), startsDate: now, expiresDate: now + hour, reason: "r", grantedBy: "a",
            grantedDate: now)
        #expect(product.appId == app && product.productId == "p" && product.entitlement == nil)
        #expect(grant().entitlement == "premium" && grant().appId == nil)
    }

    @Test func grantsLastADayToAYear() {
        #expect(SubscriptionService.longestGrantDays == 365)
        #expect(Rule.grantDays.violation(Int64(0)) != nil && Rule.grantDays.violation(Int64(366)) != nil)
        #expect(Rule.grantDays.violation(Int64(1)) == nil && Rule.grantDays.violation(Int64(365)) == nil)
    }

    @Test func retriesDoubleFromTheFirstDelayWithJitterBelowIt() throws {
        let policy = WebhookDeliveryPolicy()
        for attempts in 1...6 {
            let delay = try #require(policy.next(afterAttempts: attempts, retryFrom: now, now: now)).timeIntervalSince(now)
            let full = 5 * pow(2, Double(attempts - 1))
            #expect(delay >= full / 2 && delay <= full, "after \(attempts) attempts: \(delay) s")
        }
    }

    @Test func retriesWaitSixHoursAtMost() throws {
        let delay = try #require(WebhookDeliveryPolicy().next(afterAttempts: 30, retryFrom: now, now: now)).timeIntervalSince(now)
        #expect(delay <= 6 * hour && delay >= 3 * hour)
    }

    @Test func retriesStopAtTheEndOfTheWindowAndNeverPassIt() throws {
        let policy = WebhookDeliveryPolicy()
        let windowEnd = now + 3 * 24 * hour
        #expect(policy.next(afterAttempts: 3, retryFrom: now, now: windowEnd) == nil)
        let last = try #require(policy.next(afterAttempts: 20, retryFrom: now, now: windowEnd - 60))
        #expect(last <= windowEnd, "the last try is at the window's end, not after")
    }
}
