import AppStoreServer
import Foundation
import KeyVault

public protocol TransactionStore: Sendable {
    /// Stores transactions, each once at most (one statement for all); an older signed version never
    /// replaces a newer one. Returns whether each was new, in order.
    @discardableResult func upsert(_ transactions: [StoredTransaction]) async throws -> [Bool]
    func facts(appId: UUID, transactionId: String) async throws -> TransactionFacts?
    /// The stored transactions of one `originalTransactionId`, oldest purchase first (lifecycle events read
    /// the history before a new one).
    /// By `originalTransactionId`, for several series at once (one statement); a series with nothing
    /// stored is absent.
    func series(appId: UUID, originalTransactionIds: [String]) async throws -> [String: [SeriesTransaction]]
    /// Of `originalTransactionIds`, those with at least one stored transaction in the app.
    func knownSeries(appId: UUID, originalTransactionIds: [String]) async throws -> Set<String>
    /// A customer's purchases other than auto-renewable subscriptions.
    func oneTimePurchases(customer: UUID) async throws -> [OneTimePurchase]
    /// Notes the order ID (from Apple's Look Up Order ID) on these stored transactions of the app.
    func setOrder(appId: UUID, orderId: String, transactionIds: [String]) async throws
    /// The customer of an order's transactions (stored with them, or linked by their
    /// `originalTransactionId`); of one app when given.
    func customer(orderId: String, appId: UUID?) async throws -> UUID?
    /// Locks these series until the unit ends, in one order whatever the order given, before the unit
    /// writes any of them. A unit that stores purchases of several series takes their locks first: two
    /// such units (two notification batches of one tenant, a batch and a customer's sync) otherwise lock
    /// rows of their common series in the order each met them, and can deadlock. One series takes none.
    func lockSeries(_ series: [SeriesKey]) async throws
}

/// A series of transactions: the purchases of one `originalTransactionId` in one app and environment.
public struct SeriesKey: Hashable, Sendable {
    public let appId: UUID
    public let environment: AppStoreEnvironment
    public let originalTransactionId: String

    public init(appId: UUID, environment: AppStoreEnvironment, originalTransactionId: String) {
        self.appId = appId
        self.environment = environment
        self.originalTransactionId = originalTransactionId
    }
}
extension TransactionStore {
    /// Stores a transaction; an older signed version never replaces a newer one. Returns whether it was
    /// new.
    @discardableResult public func upsert(_ transaction: StoredTransaction) async throws -> Bool { try await upsert([transaction]).first ?? false }

    /// The stored transactions of one `originalTransactionId`, oldest purchase first (lifecycle events read
    /// the history before a new one).
    public func series(appId: UUID, originalTransactionId: String) async throws -> [SeriesTransaction] {
        try await series(appId: appId, originalTransactionIds: [originalTransactionId])[originalTransactionId] ?? []
    }
}

public protocol AppTransactionStore: Sendable {
    /// Stores the app transaction as last signed; a rescinded consent is kept once recorded.
    func upsert(_ appTransaction: StoredAppTransaction) async throws
    /// The app transaction with its linked customer, newest environment first.
    func find(appId: UUID, appTransactionId: String) async throws -> StoredAppTransaction?
    /// The app transactions linked to a customer.
    func list(customer: UUID) async throws -> [StoredAppTransaction]
}
public protocol ExternalPurchaseTokenStore: Sendable {
    /// Records a token once per app and ID; returns whether it was new.
    @discardableResult func record(_ token: ExternalPurchaseTokenRecord) async throws -> Bool
    /// Tokens, newest first.
    func list(appId: UUID?, limit: Int) async throws -> [ExternalPurchaseTokenRecord]
}
