import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `events.list`: the tenant's events as a feed, in order and without gaps.
enum EventMethods {
    static let all = [list]

    @RPCParams struct ListParams {
        /// The last sequence number the reader has (0, the default, reads from the first event).
        @Field(.minimum(0)) let after: Int64?
        /// At most this many.
        @Field(.page(EventService.page)) let limit: Int?
        /// Only these event types.
        let types: [Event.Kind]?
        /// Only this customer's events: their story, in order.
        @Field(.customerId) let customerId: String?
    }

    @RPCObject struct ListResult {
        let events: [EventView]
        /// Pass as `after` to read on (the last sequence number returned, or `after` when none were).
        @Field(.minimum(0)) let next: Int64
    }

    static let list = RPCMethod<RPCCall>(
        "events.list", tag: "events", summary: "The tenant's events after a sequence number, oldest first.",
        description: """
            Every event of the tenant is numbered 1, 2, 3, … in the order its change committed, without gaps: read with `after` set to \
            the last `sequence` you have (`next`) and you miss none. Each event is exactly what webhooks send. With customerId, one \
            customer's story: purchases, renewals, refunds with what to revoke, consumption requests and answers, grants, renewal extensions.
            """,
        result: "events", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (params: ListParams, call) in
        let page = try await call.capabilities.events.list(
            tenant: call.caller.tenant, after: params.after, types: params.types, customerId: params.customerId, limit: params.limit)
        return ListResult(events: try page.events.map(EventView.init), next: page.next)
    }.with(examples: lifecycleExamples)
}

/// An event as `events.list` returns it and a webhook sends it: the domain's JSON of it, documented here.
@RPCObject(title: "Event") struct EventView {
    /// `evt_` and 26 base32 characters; the `webhook-id` of its deliveries.
    @Field(.characters("a-z2-7", count: 26...26, prefix: "evt_")) let id: String
    let type: Event.Kind
    /// The tenant's own count, in commit order, without gaps.
    @Field(.minimum(1)) let sequence: Int64
    let createdAt: Date
    @Field(.uuid) let appId: String?
    @Field(.bundleId) let bundleId: String?
    @Field(.appStoreEnvironment) let environment: String?
    /// The tenant's id of the customer, when known.
    let customerId: String?
    /// What happened; by type: `subscription.updated` (originalTransactionId, previous and current state), `purchase.created` (the
    /// transaction), `refund.*` (the refund and, for a grant, what to revoke), `consumption.requested` (transaction, deadline),
    /// `consumption.sent|notSent`, `account.linked|transferred` (identifier, customer), `notification.received` (Apple's signedPayload
    /// and the notification's type), `entitlement.granted|revoked` (the grant), `subscription.renewalExtended` (the extension, who asked).
    /// The lifecycle types (`subscription.started`, `.trialStarted`, `.trialConverted`, `.renewed`, `.renewalCancelled`, `.billingIssue`,
    /// `.expired`, `.productChanged`, …, `purchase.oneTime`, `.consumable`, `.refunded`, `.refundReversed`, `.familyRevoked`,
    /// `.transferred`) share one shape: `occurredAt` (by Apple's dates), originalTransactionId, transactionId, productId, productType,
    /// subscriptionGroupIdentifier, `entitlements` (the catalog's names), storefront, `periodType`, `offer` {type, name, identifier,
    /// discountType, period}, expiresDate, autoRenewStatus, `periodStart` and `subscribed` (initialBuy, resubscribe) on charges,
    /// `replacedPeriod` on an upgrade, `reason` (voluntary, billingError, priceIncrease, productUnavailable,
    /// other), `productChange` {from, to, direction}, `implied`, `familyShared`, and on charges and refunds `money` {price, currency
    /// (Apple's milliunits), commissionPercent, commissionRule, taxBasisPoints, estimatedProceeds (an estimate)}; docs/API.md has a
    /// sample of each.
    @Field(.object) let data: JSONValue
    /// The event's JSON as the domain wrote it, sent as is.
    private let json: JSONValue

    init(_ event: Event) throws {
        json = try JSONParser.parse(Array(try event.json().utf8))
        (id, type, sequence, createdAt, data) = (event.displayId, event.type, event.sequence, event.createdAt, json["data"] ?? [:])
        (appId, bundleId, environment, customerId) = (event.appId?.uuidString.lowercased(), event.bundleId, event.environment?.rawValue, event.customerId)
    }

    func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}
