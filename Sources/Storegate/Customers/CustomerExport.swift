import Contract
import Foundation

/// Everything Storegate holds about one customer, as `customers.export` answers it (GDPR Art. 15).
/// Each list is oldest first unless it says otherwise; dates are ISO 8601 in UTC. Apple's signed copies
/// (JWS) are not included: each transaction's and app transaction's `payload` is what Storegate decoded
/// from them, Apple's own fields.
@RPCObject(title: "CustomerExport") public struct CustomerExport: Sendable {
    /// The document's format. A change that alters or removes a member gets another number; members may be added within one.
    @Field(.minimum(1)) public let formatVersion: Int
    public let exportedAt: Date
    /// The customer: `customerId`, `appAccountToken`, `createdAt`.
    @Field(.object(requiring: ["customerId", "appAccountToken", "createdAt"])) public let customer: JSONValue
    /// App Store identifiers linked to the customer: `bundleId`, `kind` (appTransactionId, originalTransactionId), `value`, `linkedAt`.
    @Field(.object(requiring: ["kind", "value"])) public let links: [JSONValue]
    /// Every transaction linked to the customer or to one of their originalTransactionIds: the stored columns and `payload`,
    /// Apple's decoded JWSTransaction.
    @Field(.object(requiring: ["environment", "transactionId", "originalTransactionId", "productId"])) public let transactions: [JSONValue]
    /// The app transactions of their appTransactionIds, with `payload`, Apple's decoded AppTransaction.
    @Field(.object(requiring: ["environment", "appTransactionId"])) public let appTransactions: [JSONValue]
    /// Their subscriptions, with Apple's renewal info (`renewal`) and a 12-month commitment's state (`commitment`).
    @Field(.object(requiring: ["environment", "originalTransactionId", "productId"])) public let subscriptions: [JSONValue]
    /// Renewal-date extensions of their subscriptions (mass extensions name no customer and are not included).
    @Field(.object(requiring: ["requestIdentifier"])) public let renewalExtensions: [JSONValue]
    /// Apple's refund decisions about their transactions (REFUND, REFUND_DECLINED, REFUND_REVERSED, REVOKE).
    @Field(.object(requiring: ["outcome", "transactionId"])) public let refundOutcomes: [JSONValue]
    /// Apple's CONSUMPTION_REQUESTs about their transactions and what was sent to Apple (`sentBody`).
    @Field(.object(requiring: ["id", "transactionId", "status"])) public let consumptionRequests: [JSONValue]
    /// The consumption facts the tenant reported for their transactions.
    @Field(.object(requiring: ["transactionId"])) public let consumptionFacts: [JSONValue]
    /// Access support gave them, revoked and expired grants too, newest first.
    public let grants: [GrantView]
    /// The entitlement names last evented for them (`names`, `updatedAt`); empty when none were.
    @Field(.object) public let entitlementsEvented: [JSONValue]
    /// Their events, and those of no customer naming one of their transactions (before a purchase was linked to them), as
    /// `events.list` returns them but without Apple's signed payloads: the whole history up to
    /// `CustomerExportService.most` (see `truncated`).
    @Field(.object(requiring: ["id", "type"])) public let events: [JSONValue]
    /// Apple's notifications their events came from and those deciding refunds of their transactions: uuid, type, subtype,
    /// dates, processing; not the signed payload.
    @Field(.object(requiring: ["notificationUUID", "notificationType"])) public let notifications: [JSONValue]
    /// The webhook deliveries of their events: `eventSequence`, `endpointId`, `status`, `attempts`, dates (each body is the event).
    @Field(.object) public let webhookDeliveries: [JSONValue]
    /// The tenant's attributes of them: `key`, `value`, `updatedAt`, by key.
    @Field(.object(requiring: ["key", "value"])) public let attributes: [JSONValue]
    /// Support's notes about them, newest first.
    public let notes: [CustomerNote]
    /// The tenant's audit entries about them, newest first: those whose `customerId` is theirs and those naming one of their
    /// identifiers (an extension of their subscription, facts reported for their transaction): `id`, `at`, `actor`, `action`, `detail`.
    @Field(.object(requiring: ["actor", "action"])) public let audit: [JSONValue]
    /// The lists cut at `CustomerExportService.most` entries (`events`, `notifications`, `webhookDeliveries`, `audit`); empty
    /// when the document is whole. Read on with `events.list` (`customerId`, `after` the last sequence) and `audit.list`
    /// (`customerId`, `before` the last id).
    public let truncated: [String]
}
