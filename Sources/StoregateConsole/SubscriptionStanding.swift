import Foundation
import Storegate

/// Where a subscription stands, as the customer page says it: what happened to it in a sentence, the
/// renewal only while it will renew, and whether support may extend it (not once it is revoked or expired).
struct SubscriptionStanding {
    /// "Active, renews on …", "Refunded on …, access revoked", "Expired on … (the customer turned off auto-renew)".
    private(set) var sentence: String
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
        case .billingRetry where s.commitment != nil:
            sentence = "Payment failed in " + (s.commitment?.summary ?? "")
        case .billingRetry:
            sentence = "Renewal payment failed: Apple is retrying; no access meanwhile"
        case .gracePeriod:
            sentence = "Renewal payment failed: access kept in the grace period until \(shown(s.gracePeriodExpiresDate ?? s.expiresDate))"
        case .active where s.commitment != nil:
            // A 12-month commitment bills every month whatever auto-renew says: its own status decides the end.
            sentence = "Active, " + (s.commitment?.summary ?? "")
        case .active:
            sentence = renews ? "Active, renews on \(expires)" : "Active until \(expires); auto-renew is off, so it ends then"
        case .unknown:
            sentence = "Status unknown; sync from Apple to read it again"
        }
        if s.status == .revoked, let commitment = s.commitment {
            sentence += "; the 12-month commitment ended in " + commitment.summary.dropFirst("ended in ".count)
        }
        if let offer = s.offerType.flatMap({ Self.offerTypes[$0] }) {
            sentence += ". This period was bought with \(offer)" + (s.offerIdentifier.map { " \($0)" } ?? "")
        }
        let live: Set<SubscriptionState.StatusName> = [.active, .gracePeriod, .billingRetry]
        let bills = s.commitment.map(\.nextPeriodBills) ?? renews
        renewal = live.contains(s.status) && bills ? (price.map { "\($0) on \(expires)" } ?? "on \(expires)") : nil
        extendable = live.contains(s.status)
    }

    /// Apple's offerType, in words.
    static let offerTypes: [Int32: String] = [
        1: "an introductory offer", 2: "a promotional offer", 3: "an offer code", 4: "a win-back offer", 5: "a retention offer",
    ]

    /// Apple's expirationIntent, in words.
    static let expirationIntents: [Int32: String] = [
        1: "the customer turned off auto-renew", 2: "the renewal payment failed", 3: "the customer did not agree to a price increase",
        4: "the product was not available at renewal", 5: "another reason",
    ]
}
