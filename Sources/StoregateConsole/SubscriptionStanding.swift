import Foundation
import Storegate

/// Where a subscription stands, as the customer page says it: what happened to it in a sentence, the
/// renewal only while it will renew, and whether support may extend it (not once it is revoked or expired).
struct SubscriptionStanding {
    /// "Active, renews on …", "Refunded on …, access revoked", "Expired on … (the customer turned off auto-renew)".
    let sentence: String
    /// The renewal price and date; nil unless the subscription will renew.
    let renewal: String?
    let extendable: Bool

    init(_ s: SubscriptionStatus, refunds: [RefundOutcomeItem]) {
        let expires = shown(s.expiresDate)
        let renews = s.autoRenewStatus == true
        let price = s.renewal?.price.map { String(format: "%.2f", Double($0) / 1000) + (s.renewal?.currency.map { " \($0)" } ?? "") }
        switch s.status {
        case .revoked:
            let refund = refunds.filter { $0.originalTransactionId == s.originalTransactionId && ["REFUND", "REVOKE"].contains($0.outcome) }
                .max { ($0.revocationDate ?? .distantPast) < ($1.revocationDate ?? .distantPast) }
            let when = refund.map { " on " + shown($0.revocationDate ?? $0.signedDate) } ?? ""
            sentence =
                refund?.outcome == "REVOKE" || refund?.revocationType == "FAMILY_REVOKE"
                ? "Family Sharing access revoked\(when)" : refund != nil ? "Refunded\(when), access revoked" : "Access revoked by Apple"
        case .expired:
            sentence = "Expired on \(expires)" + (Self.expirationIntents[s.renewal?.expirationIntent ?? 0].map { " (\($0))" } ?? "")
        case .billingRetry:
            sentence = "Renewal payment failed: Apple is retrying; no access meanwhile"
        case .gracePeriod:
            sentence = "Renewal payment failed: access kept in the grace period until \(shown(s.gracePeriodExpiresDate ?? s.expiresDate))"
        case .active:
            sentence = renews ? "Active, renews on \(expires)" : "Active until \(expires); auto-renew is off, so it ends then"
        case .unknown:
            sentence = "Status unknown; sync from Apple to read it again"
        }
        let live: Set<SubscriptionState.StatusName> = [.active, .gracePeriod, .billingRetry]
        renewal = live.contains(s.status) && renews ? (price.map { "\($0) on \(expires)" } ?? "on \(expires)") : nil
        extendable = live.contains(s.status)
    }

    /// Apple's expirationIntent, in words.
    static let expirationIntents: [Int32: String] = [
        1: "the customer turned off auto-renew", 2: "the renewal payment failed", 3: "the customer did not agree to a price increase",
        4: "the product was not available at renewal", 5: "another reason",
    ]
}
