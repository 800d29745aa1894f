import Foundation

/// `TransactionCommitmentInfo`, as Apple defines it.
public struct TransactionCommitmentInfo: Codable, Hashable, Sendable {
    public var billingPeriodNumber: Int32?
    public var commitmentExpiresDate: Timestamp?
    public var commitmentPrice: Int64?
    public var totalBillingPeriods: Int32?

    public init(billingPeriodNumber: Int32? = nil, commitmentExpiresDate: Timestamp? = nil, commitmentPrice: Int64? = nil, totalBillingPeriods: Int32? = nil) {
        self.billingPeriodNumber = billingPeriodNumber
        self.commitmentExpiresDate = commitmentExpiresDate
        self.commitmentPrice = commitmentPrice
        self.totalBillingPeriods = totalBillingPeriods
    }
}
