import AppStoreServer
import Foundation
import KeyVault

public protocol CustomerStore: Sendable {
    /// The customer with this id, created with a fresh appAccountToken on first use.
    func ensure(customerId: String) async throws -> (customer: Customer, created: Bool)
    func find(id: UUID) async throws -> Customer?
    func find(customerId: String) async throws -> Customer?
    func find(appAccountToken: UUID) async throws -> Customer?
    /// The customer's subscriptions (and, with `purchases`, other purchases) in one round trip; nil when
    /// there is no such customer.
    func holdings(customerId: String, purchases: Bool) async throws -> Holdings?
    /// The link of an identifier, locked for the unit of work.
    func link(appId: UUID, kind: AccountLink.Kind, value: String) async throws -> AccountLink?
    func links(customer: UUID) async throws -> [AccountLink]
    /// Links an identifier to a customer, moving it when it was linked to another.
    func setLink(appId: UUID, kind: AccountLink.Kind, value: String, customer: UUID) async throws
    /// Links an identifier unless it is linked already: links from Apple's data never move one.
    /// Whether it linked (false: the identifier was linked already).
    @discardableResult
    func linkIfUnlinked(appId: UUID, kind: AccountLink.Kind, value: String, customer: UUID) async throws -> Bool
    /// The customer Apple's data belongs to: by the `originalTransactionId` link, the `appAccountToken`, or
    /// the `appTransactionId` link, in that order.
    func owner(appId: UUID, originalTransactionId: String, appAccountToken: UUID?, appTransactionId: String?) async throws -> UUID?
    /// For each of `series` (in one statement): its `owner` (else its `fallback`), and its
    /// `originalTransactionId` linked to them unless linked already (`linkIfUnlinked`): whether it linked.
    func linkSeries(_ series: [SeriesOwnerQuery]) async throws -> [(owner: UUID?, linked: Bool)]
}

/// What Apple's data says of a purchase series' owner (`CustomerStore.owner`, `linkSeries`).
public struct SeriesOwnerQuery: Sendable {
    public var appId: UUID
    public var originalTransactionId: String
    public var appAccountToken: UUID?
    public var appTransactionId: String?
    /// The owner when Apple's data names none Storegate knows.
    public var fallback: UUID?

    public init(appId: UUID, originalTransactionId: String, appAccountToken: UUID?, appTransactionId: String?, fallback: UUID? = nil) {
        self.appId = appId
        self.originalTransactionId = originalTransactionId
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.fallback = fallback
    }
}
