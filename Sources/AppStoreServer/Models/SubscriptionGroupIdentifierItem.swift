import Foundation

/// `SubscriptionGroupIdentifierItem`, as Apple defines it.
public struct SubscriptionGroupIdentifierItem: Codable, Hashable, Sendable {
    /// The identifier of the subscription group that the subscription belongs to.
    public var subscriptionGroupIdentifier: String?
    /// An array of the most recent App Store-signed transaction information and App Store-signed renewal information for all auto-renewable subscriptions in the subscription group.
    public var lastTransactions: [LastTransactionsItem]?

    public init(subscriptionGroupIdentifier: String? = nil, lastTransactions: [LastTransactionsItem]? = nil) {
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.lastTransactions = lastTransactions
    }
}
