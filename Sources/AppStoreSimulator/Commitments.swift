import AppStoreServer
import Foundation

/// Monthly subscriptions with a 12-month commitment, as Apple's "Managing the life cycle of monthly
/// subscriptions with a 12-month commitment" describes them: a purchase with billing plan `MONTHLY` bills
/// month 1 of 12; each renewal bills the next month (`billingPeriodNumber`), all of them whatever the customer
/// does; a cancellation turns off only the commitment's renewal (`commitmentAutoRenewStatus`); after month 12
/// the subscription renews into a new commitment, or into the plan the customer chose, or expires. A month
/// whose billing recovers late moves the commitment's end by as much. Apple gives these no grace period.
/// Where Apple does not say (the price a commitment renews at), the simulator takes the monthly price.
extension SimulatorStore {
    /// The months of a commitment the simulator sells.
    static let commitmentMonths: Int32 = 12

    /// Makes `transaction` (just bought) month 1 of a commitment, and `renewal` renew into another.
    func beginCommitment(
        _ transaction: inout JWSTransactionDecodedPayload, _ renewal: inout JWSRenewalInfoDecodedPayload, start: Date, period: TimeInterval
    ) {
        let months = Self.commitmentMonths
        let ends = Timestamp(start.addingTimeInterval(period * Double(months)))
        transaction.billingPlanType = .monthly
        transaction.commitmentInfo = TransactionCommitmentInfo(
            billingPeriodNumber: 1, commitmentExpiresDate: ends, commitmentPrice: transaction.price.map { $0 * Int64(months) }, totalBillingPeriods: months)
        renewal.renewalBillingPlanType = .monthly
        renewal.commitmentInfo = RenewalCommitmentInfo(
            commitmentAutoRenewProductId: transaction.productId, commitmentAutoRenewStatus: .on, commitmentRenewalBillingPlanType: .monthly,
            commitmentRenewalDate: ends, commitmentRenewalPrice: transaction.price)
    }

    /// The next month of `previous`'s commitment as `next` (a renewal starting at `start`), or, after its last
    /// month, what it renews into; nil when the customer cancelled the commitment: it ends after its last
    /// month, and Apple sends `EXPIRED` instead of a renewal.
    func continueCommitment(
        _ next: inout JWSTransactionDecodedPayload, after previous: JWSTransactionDecodedPayload, start: Date, period: TimeInterval, recovering: Bool
    ) -> Bool {
        guard previous.billingPlanType == .monthly, let info = previous.commitmentInfo, let original = previous.originalTransactionId,
            var renewal = renewals[original]
        else { return true }
        let month = info.billingPeriodNumber ?? 1
        let months = info.totalBillingPeriods ?? Self.commitmentMonths
        if month < months {
            // Billing that recovers moves the commitment's end by as long as the month went unpaid (from the
            // failure, when the failed period ended, to now).
            var updated = info
            updated.billingPeriodNumber = month + 1
            if recovering, let ends = info.commitmentExpiresDate?.date, let failed = previous.expiresDate?.date, start > failed {
                updated.commitmentExpiresDate = Timestamp(ends.addingTimeInterval(start.timeIntervalSince(failed)))
            }
            next.commitmentInfo = updated
            renewal.commitmentInfo?.commitmentRenewalDate = updated.commitmentExpiresDate
            renewals[original] = renewal
            return true
        }
        guard let after = renewal.commitmentInfo, after.commitmentAutoRenewStatus == .on else { return false }
        next.productId = after.commitmentAutoRenewProductId ?? previous.productId
        next.price = after.commitmentRenewalPrice ?? previous.price
        renewal.autoRenewProductId = next.productId
        renewal.productId = next.productId
        if after.commitmentRenewalBillingPlanType == .monthly {
            beginCommitment(&next, &renewal, start: start, period: period)
            renewals[original] = renewal
        } else {
            // A standard subscription billed up front for the year.
            next.billingPlanType = .billedUpfront
            next.commitmentInfo = nil
            periods[original] = period * Double(months)
            next.expiresDate = Timestamp(start.addingTimeInterval(period * Double(months)))
            renewal.renewalBillingPlanType = .billedUpfront
            renewal.commitmentInfo = nil
            renewal.renewalPrice = next.price
            renewals[original] = renewal
        }
        return true
    }

    /// Whether the subscription is in the last month of a commitment the customer cancelled: it cannot renew.
    func commitmentEnds(originalTransactionId: String) -> Bool {
        guard let latest = latest(originalTransactionId: originalTransactionId), latest.billingPlanType == .monthly,
            let info = latest.commitmentInfo, (info.billingPeriodNumber ?? 0) >= (info.totalBillingPeriods ?? Self.commitmentMonths)
        else { return false }
        return renewals[originalTransactionId]?.commitmentInfo?.commitmentAutoRenewStatus != .on
    }

    /// A refund of the month being billed ends the commitment at once: nothing renews any more.
    func endCommitment(refunded transaction: JWSTransactionDecodedPayload) {
        guard transaction.billingPlanType == .monthly, let original = transaction.originalTransactionId,
            latest(originalTransactionId: original)?.transactionId == transaction.transactionId, var renewal = renewals[original]
        else { return }
        renewal.autoRenewStatus = .off
        renewal.commitmentInfo?.commitmentAutoRenewStatus = .off
        renewal.signedDate = transaction.signedDate
        renewals[original] = renewal
    }
}
