import AppStoreServer
import Foundation

/// What a customer holds, read in one statement: the read every app launch makes.
public struct Holdings: Sendable {
    public let customer: UUID
    /// Stored with the customer or linked to them by `originalTransactionId`.
    public let subscriptions: [Subscription]
    /// Purchases of every other type, when asked for.
    public let purchases: [OneTimePurchase]
    /// Grants neither revoked nor expired when read, with the purchases.
    public let grants: [Grant]

    public init(customer: UUID, subscriptions: [Subscription], purchases: [OneTimePurchase], grants: [Grant] = []) {
        self.customer = customer
        self.subscriptions = subscriptions
        self.purchases = purchases
        self.grants = grants
    }
}
