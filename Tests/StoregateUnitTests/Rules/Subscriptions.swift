import AppStoreServer
import Foundation

@testable import Storegate

/// Subscriptions as rule tests build them: values only, no database.
enum Subscriptions {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let day: TimeInterval = 86_400

    /// A subscription to `com.example.monthly`, `status` as Apple signed it, expiring `expiresIn` from now.
    static func subscription(
        _ status: Status = .active, expiresIn: TimeInterval = 10 * day, grace: TimeInterval? = nil, autoRenew: Bool = true, offer: OfferType? = nil,
        renewal: RenewalTerms? = nil, plan: BillingPlanType? = nil, commitment: Commitment? = nil, productId: String = "com.example.monthly"
    ) -> Subscription {
        Subscription(
            appId: UUID(), environment: .sandbox, originalTransactionId: "1000", subscriptionGroupIdentifier: "group", customer: nil, status: status,
            productId: productId, latestTransactionId: "1001", purchaseDate: now - 20 * day, expiresDate: now + expiresIn, autoRenewStatus: autoRenew,
            autoRenewProductId: productId, inBillingRetry: status == .billingRetry || status == .billingGracePeriod,
            gracePeriodExpiresDate: grace.map { now + $0 }, offerType: offer, offerIdentifier: offer == nil ? nil : "OFFER", price: 10_990, currency: "EUR",
            signedDate: now, renewal: renewal, billingPlanType: plan, commitment: commitment)
    }

    /// A commitment in month `month` of 12, ending in 300 days, whose renewal info says `renews` (into `into`, on `plan`).
    static func committed(
        _ status: Status = .active, month: Int32 = 4, renews: Bool? = true, plan: String = "MONTHLY", into: String? = nil, grace: TimeInterval? = nil
    ) -> Subscription {
        var terms = RenewalTerms(JWSRenewalInfoDecodedPayload())
        terms.billingPlanType = "MONTHLY"
        terms.commitment =
            renews.map {
                CommitmentRenewal(
                    autoRenewStatus: $0, autoRenewProductId: into ?? "com.example.yearly", billingPlanType: plan, renewalDate: nil, renewalPrice: 10_990)
            }
        return subscription(
            status, expiresIn: status == .active ? 10 * day : -1, grace: grace, renewal: terms, plan: .monthly,
            commitment: Commitment(billingPeriodNumber: month, totalBillingPeriods: 12, expiresDate: now + 300 * day, price: 131_880),
            productId: "com.example.yearly")
    }

    /// The commitment's end as summaries write it.
    static var commitmentEnd: String { CommitmentStatus.day(now + 300 * day) }
}
