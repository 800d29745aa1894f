import AppStoreServer
import Foundation

/// Where a monthly subscription with a 12-month commitment (App Store Server API 1.21) stands, from its
/// latest transaction's `commitmentInfo`: absent for a standard subscription (`billingPlanType`
/// `BILLED_UPFRONT`, or none before 2026). Each month is billed and arrives as a renewal of its own; the
/// commitment is the year those months add up to.
public struct Commitment: Sendable, Equatable, Codable {
    /// The month the latest transaction pays for, from 1 ("month 4 of 12").
    public var billingPeriodNumber: Int32?
    /// The months in the commitment (12).
    public var totalBillingPeriods: Int32?
    /// When the whole commitment ends. A month whose billing recovers late moves it later, so it is read from
    /// the latest transaction, never kept from the first.
    public var expiresDate: Date?
    /// The commitment's total price, in milliunits of the subscription's currency (12 × the monthly price).
    public var price: Int64?

    public init(billingPeriodNumber: Int32?, totalBillingPeriods: Int32?, expiresDate: Date?, price: Int64?) {
        self.billingPeriodNumber = billingPeriodNumber
        self.totalBillingPeriods = totalBillingPeriods
        self.expiresDate = expiresDate
        self.price = price
    }

    /// The transaction's commitment; nil unless it carries `commitmentInfo`.
    init?(_ transaction: JWSTransactionDecodedPayload) {
        guard let info = transaction.commitmentInfo else { return nil }
        self.init(
            billingPeriodNumber: info.billingPeriodNumber, totalBillingPeriods: info.totalBillingPeriods, expiresDate: info.commitmentExpiresDate?.date,
            price: info.commitmentPrice)
    }

    /// Whether this is the commitment's last month.
    public var isLastPeriod: Bool {
        guard let billingPeriodNumber, let totalBillingPeriods else { return false }
        return billingPeriodNumber >= totalBillingPeriods
    }
}

/// What happens when a commitment ends, from the renewal info's `commitmentInfo` (present only while the
/// subscription is in a commitment). The renewal info's own `autoRenewStatus` says whether the next month
/// bills; this says whether the subscription goes on once the commitment's months are paid.
public struct CommitmentRenewal: Sendable, Equatable, Codable {
    /// `commitmentAutoRenewStatus`: false once the customer cancelled (billing still continues to the end).
    public var autoRenewStatus: Bool?
    /// The product the subscription renews into after the commitment.
    public var autoRenewProductId: String?
    /// `MONTHLY` (a new commitment) or `BILLED_UPFRONT` (a standard subscription).
    public var billingPlanType: String?
    public var renewalDate: Date?
    /// In milliunits of the currency.
    public var renewalPrice: Int64?

    public init(autoRenewStatus: Bool?, autoRenewProductId: String?, billingPlanType: String?, renewalDate: Date?, renewalPrice: Int64?) {
        self.autoRenewStatus = autoRenewStatus
        self.autoRenewProductId = autoRenewProductId
        self.billingPlanType = billingPlanType
        self.renewalDate = renewalDate
        self.renewalPrice = renewalPrice
    }

    init(_ info: RenewalCommitmentInfo) {
        self.init(
            autoRenewStatus: info.commitmentAutoRenewStatus.map { $0 == .on }, autoRenewProductId: info.commitmentAutoRenewProductId,
            billingPlanType: info.commitmentRenewalBillingPlanType?.rawValue, renewalDate: info.commitmentRenewalDate?.date,
            renewalPrice: info.commitmentRenewalPrice)
    }
}
