import AppStoreServer
import Contract
import Foundation

/// A monthly subscription with a 12-month commitment in the tenant's terms, as `subscriptions.status`,
/// `entitlements.list`, `customers.sync` and the console give it. It follows Apple's "Managing the life cycle
/// of monthly subscriptions with a 12-month commitment": every month of the commitment is billed, a
/// cancellation only stops the renewal once it ends, a billing failure ends access (there is no grace
/// period) until it recovers, and a refund of the month being billed ends the commitment.
@RPCObject(title: "Commitment") public struct CommitmentStatus: Sendable {
    /// The month the latest transaction pays for, from 1.
    public let billingPeriodNumber: Int32?
    /// The months in the commitment (12).
    public let totalBillingPeriods: Int32?
    /// When the commitment ends (later than first said when a month's billing recovered late).
    public let expiresDate: Date?
    /// The commitment's total price, in milliunits of the currency.
    public let price: Int64?
    /// Whether the next month will be billed: while months remain (a cancellation does not stop them) and
    /// billing has not failed; after the last month, when the subscription renews.
    public let nextPeriodBills: Bool
    /// Whether the subscription renews when the commitment ends (Apple's commitmentAutoRenewStatus): false
    /// once the customer cancelled.
    public let renews: Bool?
    /// The product it renews into then.
    public let renewalProductId: String?
    /// MONTHLY (a new commitment) or BILLED_UPFRONT (a standard subscription).
    public let renewalBillingPlanType: String?
    public let renewalDate: Date?
    /// In milliunits of the currency.
    public let renewalPrice: Int64?
    /// In plain terms: "month 4 of 12; billing continues until 2027-03-02, then ends".
    public let summary: String

    /// Nil unless the subscription is in a commitment (its latest transaction's billing plan is `MONTHLY`).
    init?(_ state: SubscriptionState) {
        let subscription = state.subscription
        guard subscription.billingPlanType == .monthly, let commitment = subscription.commitment else { return nil }
        let after = subscription.renewal?.commitment
        billingPeriodNumber = commitment.billingPeriodNumber
        totalBillingPeriods = commitment.totalBillingPeriods
        expiresDate = commitment.expiresDate
        price = commitment.price
        renews = after?.autoRenewStatus
        renewalProductId = after?.autoRenewProductId
        renewalBillingPlanType = after?.billingPlanType
        renewalDate = after?.renewalDate
        renewalPrice = after?.renewalPrice
        let active = state.status == .active
        nextPeriodBills = active && (commitment.isLastPeriod ? after?.autoRenewStatus == true : subscription.autoRenewStatus != false)
        summary = Self.summary(state, commitment, after)
    }

    static func summary(_ state: SubscriptionState, _ commitment: Commitment, _ after: CommitmentRenewal?) -> String {
        let month = "month \(commitment.billingPeriodNumber.map(String.init) ?? "?") of \(commitment.totalBillingPeriods.map(String.init) ?? "?")"
        let end = commitment.expiresDate.map(Self.day) ?? "the commitment's end"
        switch state.status {
        case .revoked: return "ended in \(month): that month was refunded"
        case .expired: return "ended after \(month)"
        case .billingRetry, .billingGracePeriod:
            return "\(month): billing failed and Apple is retrying; no access until it recovers, and the commitment ends if it does not within 90 days"
        default:
            let then: String
            switch (after?.autoRenewStatus, after?.billingPlanType) {
            case (false?, _): then = "ends"
            case (true?, BillingPlanType.monthly.rawValue?):
                let product = after?.autoRenewProductId
                then = product == nil || product == state.subscription.productId ? "a new commitment starts" : "a new commitment to \(product!) starts"
            case (true?, _): then = "renews as \(after?.autoRenewProductId ?? state.subscription.productId), billed up front"
            case (nil, _): then = "Apple has not said whether it renews"
            }
            if commitment.isLastPeriod { return "\(month), the last; the commitment ends \(end), then \(then)" }
            return "\(month); billing continues until \(end), then \(then)"
        }
    }

    static func day(_ date: Date) -> String { dayFormat.string(from: date) }

    private static let dayFormat: DateFormatter = {
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd"
        format.timeZone = TimeZone(identifier: "UTC")
        format.locale = Locale(identifier: "en_US_POSIX")
        return format
    }()
}
