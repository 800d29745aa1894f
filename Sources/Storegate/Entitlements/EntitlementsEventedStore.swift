import Foundation

/// The entitlement names `entitlements.changed` last reported per customer, and what a customer's names
/// now are worked out from.
public protocol EntitlementsEventedStore: Sendable {
    /// For each of `customers`: what they hold now (subscriptions, other purchases and grants in force, as
    /// `entitlements.list` reads them) and the names last evented (empty when none were), in one statement.
    func holdingsAndEvented(customers: [UUID]) async throws -> [(holdings: Holdings, evented: [String])]
    /// Records the names now evented for each customer.
    func record(_ evented: [(customer: UUID, names: [String])]) async throws
}
