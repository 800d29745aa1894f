import Contract
import Foundation

/// What erasing a customer did (`customers.delete`). Counts, and the erasure's own id: the one name the
/// customer's remaining traces carry (their audit entries, the `customer.deleted` event), so that they
/// still read as one person's without saying who.
@RPCObject(title: "CustomerErasure") public struct CustomerErasure: Sendable, Equatable {
    /// False when Storegate held nothing of this customer id (never known, or erased before): nothing
    /// changed, and a repeated call is no error.
    public let deleted: Bool
    /// `ers_` and 26 base32 characters; absent when nothing was deleted.
    public let erasureId: String?
    /// Purchases kept by Apple's identifiers with no customer, appAccountToken or signed copy.
    public let transactions: Int
    /// Subscriptions kept by Apple's identifiers with no customer.
    public let subscriptions: Int
    /// Notifications whose signed payload was dropped (their decoded columns stay).
    public let notifications: Int
    /// Events kept in the feed with no customer in them.
    public let events: Int
    /// Refund requests and outcomes kept with no customer (pending ones are still answered).
    public let refunds: Int
    /// Audit entries that now name the erasure instead of the customer.
    public let auditEntries: Int
    /// Deleted with the customer: links, grants, notes and attributes.
    public let links: Int
    public let grants: Int
    public let notes: Int
    public let attributes: Int

    public static let nothing = CustomerErasure(
        deleted: false, erasureId: nil, transactions: 0, subscriptions: 0, notifications: 0, events: 0, refunds: 0, auditEntries: 0, links: 0, grants: 0,
        notes: 0, attributes: 0)

    public init(
        deleted: Bool, erasureId: String?, transactions: Int, subscriptions: Int, notifications: Int, events: Int, refunds: Int, auditEntries: Int,
        links: Int, grants: Int, notes: Int, attributes: Int
    ) {
        (self.deleted, self.erasureId, self.transactions, self.subscriptions, self.notifications) =
            (deleted, erasureId, transactions, subscriptions, notifications)
        (self.events, self.refunds, self.auditEntries, self.links, self.grants, self.notes, self.attributes) =
            (events, refunds, auditEntries, links, grants, notes, attributes)
    }
}

/// Where a customer's personal data lies in the tenant's schema, and its erasure.
public protocol CustomerErasureStore: Sendable {
    /// Processed notifications whose purchase series is not recorded (processed before tenant migration
    /// 27) that still have their signed payload: a page in order of their UUID, after `after`.
    func unlabelledNotifications(after: UUID?, limit: Int) async throws -> [(notificationUUID: UUID, signedPayload: String)]
    /// Records the series each notification is about ('' for none).
    func label(_ notifications: [(notificationUUID: UUID, originalTransactionId: String)]) async throws
    /// Erases `customer` in the unit's transaction: the customer's row and what hangs on it deleted, their
    /// purchases, subscriptions, refund requests, events and notifications kept without them and without
    /// Apple's signed copies, their audit entries and metrics membership renamed to `erasure`. Returns the
    /// counts (`erasureId` and `deleted` as the caller sets them).
    func erase(customer: Customer, erasure: UUID) async throws -> CustomerErasure
}
