import Foundation

/// One day (UTC) of a tenant's business, for the console's overview.
public struct DailyFigures: Sendable, Equatable {
    public let day: Date
    /// First purchases: transactions that are their own original transaction.
    public let purchases: Int
    /// Renewals: subscription transactions after the first.
    public let renewals: Int
    /// Refunds Apple granted that day.
    public let refunds: Int
    /// Subscriptions whose stored transactions cover the end of the day (for today: now), not revoked by then.
    public let activeSubscriptions: Int

    public init(day: Date, purchases: Int, renewals: Int, refunds: Int, activeSubscriptions: Int) {
        self.day = day
        self.purchases = purchases
        self.renewals = renewals
        self.refunds = refunds
        self.activeSubscriptions = activeSubscriptions
    }

    /// Refunds per purchase and renewal of the day, 0 when there were none.
    public var refundRate: Double { purchases + renewals == 0 ? 0 : Double(refunds) / Double(purchases + renewals) }
}
