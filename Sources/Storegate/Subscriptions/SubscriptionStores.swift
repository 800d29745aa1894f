import AppStoreServer
import Foundation
import KeyVault

public protocol SubscriptionStore: Sendable {
    /// Stores what Apple signed of several subscriptions (each once at most, one statement for all) unless
    /// newer data is stored; returns what each changed, in order, nil where it did not apply. The previous
    /// state is the one committed when the statement started.
    @discardableResult func upsert(_ subscriptions: [Subscription]) async throws -> [SubscriptionChange?]
    /// Moves the expiry after a renewal-date extension (never earlier); whether it moved (not when newer
    /// data Storegate applied, such as Apple's `RENEWAL_EXTENDED`, holds that date already).
    func extend(appId: UUID, originalTransactionId: String, to date: Date) async throws -> Bool
    /// The customer's subscriptions: stored with the customer or linked to them by `originalTransactionId`.
    func list(customer: UUID) async throws -> [Subscription]
    func list(appId: UUID, originalTransactionId: String) async throws -> [Subscription]
    /// What retention rules ask of the subscription beyond its state; `customer` is its customer, when linked.
    func retentionFacts(appId: UUID, environment: AppStoreEnvironment, originalTransactionId: String, customer: UUID?) async throws -> RetentionFacts
}
extension SubscriptionStore {
    /// Stores what Apple signed unless newer data is stored; returns what it changed, nil when it did not
    /// apply. The previous state is the one committed when the statement started.
    @discardableResult public func upsert(_ subscription: Subscription) async throws -> SubscriptionChange? { try await upsert([subscription]).first ?? nil }
}

public protocol RenewalExtensionStore: Sendable {
    /// Records an extension, or updates its environment, date and result.
    func record(_ extension: RenewalExtension) async throws
    /// When the subscription's single extensions that did not fail were asked for, in the last 365 days.
    func recent(appId: UUID, originalTransactionId: String) async throws -> [Date]
    /// Serialises extensions of one subscription for the rest of the unit of work.
    func lock(appId: UUID, originalTransactionId: String) async throws
    /// Whether Storegate asked Apple to extend this subscription to `expiresDate` (or asked within the
    /// hour and has no answer yet): its own request then says `subscription.extended`, not Apple's notification.
    func requested(appId: UUID, originalTransactionId: String, expiresDate: Date) async throws -> Bool
    /// Records Apple's summary of a mass extension (also one Storegate did not ask for).
    func recordSummary(_ summary: MassExtensionSummary) async throws
    func summary(appId: UUID, requestIdentifier: String) async throws -> MassExtensionSummary?
}
