import Foundation

/// `AdvancedCommerceSubscriptionModifyPeriodChange`, as Apple defines it.
public struct AdvancedCommerceSubscriptionModifyPeriodChange: Codable, Hashable, Sendable {
    public var effective: AdvancedCommerceEffective
    public var period: AdvancedCommercePeriod

    public init(effective: AdvancedCommerceEffective, period: AdvancedCommercePeriod) {
        self.effective = effective
        self.period = period
    }
}
