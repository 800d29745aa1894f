import Foundation

/// The rows of a customer's export that the tenant's tables hold, each section a JSON array of objects
/// (camelCase members, dates in ISO 8601, Apple's decoded payloads as stored; no signed copies).
public struct CustomerExportRows: Sendable {
    public let customer: Customer
    public let links: String
    public let transactions: String
    public let appTransactions: String
    public let subscriptions: String
    public let renewalExtensions: String
    public let refundOutcomes: String
    public let consumptionRequests: String
    public let consumptionFacts: String
    public let entitlementsEvented: String
    public let attributes: String
    /// The sequence numbers of their events, oldest first: those of the customer, and those of no customer naming one
    /// of their transactions (before a purchase was linked to them).
    public let eventSequences: [Int64]
    /// At most `most + 1` each, so the reader sees that there were more.
    public let notifications: String
    public let webhookDeliveries: String
    public let audit: String

    public init(
        customer: Customer, links: String, transactions: String, appTransactions: String, subscriptions: String, renewalExtensions: String,
        refundOutcomes: String, consumptionRequests: String, consumptionFacts: String, entitlementsEvented: String, attributes: String,
        eventSequences: [Int64], notifications: String, audit: String, webhookDeliveries: String
    ) {
        self.customer = customer
        self.links = links
        self.transactions = transactions
        self.appTransactions = appTransactions
        self.subscriptions = subscriptions
        self.renewalExtensions = renewalExtensions
        self.refundOutcomes = refundOutcomes
        self.consumptionRequests = consumptionRequests
        self.consumptionFacts = consumptionFacts
        self.entitlementsEvented = entitlementsEvented
        self.attributes = attributes
        self.eventSequences = eventSequences
        self.notifications = notifications
        self.webhookDeliveries = webhookDeliveries
        self.audit = audit
    }
}

/// Reads everything the tenant's schema holds about one customer, for `customers.export`.
public protocol CustomerExportStore: Sendable {
    /// Makes the unit's transaction one snapshot (repeatable read): the first statement of a `.write`
    /// unit, before anything else is read in it.
    func beginSnapshot() async throws
    /// The customer's rows, or nil when there is no customer with this id. The customer's identifiers
    /// are their account links, the transactions linked to them or to one of their originalTransactionIds,
    /// and their subscriptions; every section is the rows that name the customer or one of those.
    /// `eventSequences`, `notifications` and `webhookDeliveries` are cut after `most + 1` rows, oldest first; `audit` (the tenant's
    /// audit entries whose `customerId` is theirs or with a member valued one of their identifiers) after
    /// `most + 1`, newest first.
    func rows(customerId: String, most: Int) async throws -> CustomerExportRows?
}
