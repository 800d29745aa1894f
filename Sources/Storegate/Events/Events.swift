import AppStoreServer
import Foundation

/// What each event type says (its `data`), made from the change that causes it. Fields are Apple's names
/// where Apple has one; dates are ISO 8601; customers are the tenant's own customer ids.
enum Events {
    /// UUIDs in events are lowercase, as everywhere in Storegate's API.
    static func lower(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// A subscription's state as events report it: the fields whose change makes `subscription.updated`.
    struct SubscriptionStateData: Encodable, Equatable {
        let status: String
        let statusCode: Int32
        let productId: String
        let expiresDate: Date?
        let autoRenewStatus: Bool?
        /// A 12-month commitment's month billed, its end, and whether it renews then.
        let billingPeriodNumber: Int32?
        let commitmentExpiresDate: Date?
        let commitmentAutoRenewStatus: Bool?

        init(_ state: SubscriptionChange.State) {
            status = SubscriptionState.StatusName(state.status).rawValue
            statusCode = state.status.rawValue
            productId = state.productId
            expiresDate = state.expiresDate
            autoRenewStatus = state.autoRenewStatus
            billingPeriodNumber = state.billingPeriodNumber
            commitmentExpiresDate = state.commitmentExpiresDate
            commitmentAutoRenewStatus = state.commitmentAutoRenewStatus
        }
    }

    struct SubscriptionUpdated: Encodable {
        let originalTransactionId: String
        let latestTransactionId: String
        let subscriptionGroupIdentifier: String?
        /// Absent when the subscription was first seen.
        let previous: SubscriptionStateData?
        let current: SubscriptionStateData
    }

    /// `subscription.updated`, when `change` changed what events report (a first sighting included).
    static func subscriptionUpdated(_ subscription: Subscription, _ change: SubscriptionChange) throws -> NewEvent? {
        let current = SubscriptionStateData(change.current)
        guard change.previous.map(SubscriptionStateData.init) != current else { return nil }
        return try NewEvent(
            .subscriptionUpdated, appId: subscription.appId, environment: subscription.environment, customer: subscription.customer,
            data: SubscriptionUpdated(
                originalTransactionId: subscription.originalTransactionId, latestTransactionId: subscription.latestTransactionId,
                subscriptionGroupIdentifier: subscription.subscriptionGroupIdentifier, previous: change.previous.map(SubscriptionStateData.init),
                current: current))
    }

    /// `retention.answered`: the request, the rule that held and its answer (a promotional offer named,
    /// never its signature), or why nothing was answered (`unanswered`).
    struct RetentionAnswered: Encodable {
        let requestIdentifier: String
        let originalTransactionId: String
        let productId: String
        let userLocale: String
        let signedDate: Date
        let rule: String?
        let answer: RetentionAnswer?
        /// noRules, noRuleHeld, unknownSubscription, tenantSuspended, or cut (Apple got `{}`: see `cut`).
        let unanswered: String?
        /// Why the answer was cut: not ready by its deadline (and at which step), or not sent.
        let cut: String?
    }

    struct PurchaseCreated: Encodable {
        let transactionId: String
        let originalTransactionId: String
        let productId: String
        let productType: String
        let purchaseDate: Date?
        let expiresDate: Date?
        let appAccountToken: String?
        /// What the customer paid, in milliunits of `currency` (4990 is 4.99), when Apple says.
        let price: Int64?
        let currency: String?
        /// The offer it was bought with: Apple's offerType, its name (retentionOffer for 5) and identifier.
        let offerType: Int32?
        let offer: String?
        let offerIdentifier: String?
    }

    static func purchaseCreated(_ t: StoredTransaction) throws -> NewEvent {
        try NewEvent(
            .purchaseCreated, appId: t.appId, environment: t.environment, customer: t.customer,
            data: PurchaseCreated(
                transactionId: t.transactionId, originalTransactionId: t.originalTransactionId, productId: t.productId, productType: t.productType.rawValue,
                purchaseDate: t.purchaseDate, expiresDate: t.expiresDate, appAccountToken: t.appAccountToken.map(lower), price: t.price,
                currency: t.currency, offerType: t.offerType?.rawValue, offer: t.offerType?.name, offerIdentifier: t.offerIdentifier))
    }

    struct Refund: Encodable {
        /// Absent when the refund was found in Apple's refund history (`source`).
        let notificationUUID: String?
        let source: String
        let transactionId: String
        let originalTransactionId: String
        let productId: String
        let productType: String
        let quantity: Int
        let refundPercentage: Int?
        let revocationType: String?
        let revocationReason: Int32?
        let revocationDate: Date?
        /// What to revoke, as `refunds.outcomes` says it.
        let revoke: RevokeInstruction
    }

    /// `refund.granted`, `refund.declined` or `refund.reversed`, with what `refunds.outcomes` says to revoke;
    /// nil for Family Sharing's `REVOKE`, which is no refund (`NotificationAction`).
    static func refund(_ o: RefundOutcome) throws -> NewEvent? {
        guard case .refundOutcome(let type?) = NotificationAction(o.outcome) else { return nil }
        return try NewEvent(
            type, appId: o.appId, environment: o.environment, customer: o.customer,
            data: Refund(
                notificationUUID: o.notificationUUID.map(lower), source: o.source.rawValue, transactionId: o.transactionId,
                originalTransactionId: o.originalTransactionId,
                productId: o.productId,
                productType: o.productType.rawValue, quantity: o.quantity, refundPercentage: o.refundPercentage, revocationType: o.revocationType?.rawValue,
                revocationReason: o.revocationReason?.rawValue, revocationDate: o.revocationDate, revoke: o.revoke))
    }

    struct ConsumptionRequested: Encodable {
        let requestId: String
        let transactionId: String
        let originalTransactionId: String
        let reason: String?
        let requestedAt: Date
        let deadline: Date
    }

    static func consumptionRequested(_ r: RefundRequest) throws -> NewEvent {
        try NewEvent(
            .consumptionRequested, appId: r.appId, environment: r.environment, customer: r.customer,
            data: ConsumptionRequested(
                requestId: lower(r.id), transactionId: r.transactionId, originalTransactionId: r.originalTransactionId, reason: r.reason?.rawValue,
                requestedAt: r.requestedAt, deadline: r.deadline))
    }

    struct NotificationReceived: Encodable {
        let notificationUUID: String
        let notificationType: String
        let subtype: String?
        let signedDate: Date?
    }

    /// `notification.received`; the signed payload is the stored notification's, joined when read.
    static func notificationReceived(_ n: StoredNotification) throws -> NewEvent {
        try NewEvent(
            .notificationReceived, appId: n.appId, environment: n.environment, customer: nil,
            data: NotificationReceived(
                notificationUUID: lower(n.notificationUUID), notificationType: n.notificationType.rawValue, subtype: n.subtype?.rawValue,
                signedDate: n.signedDate),
            notificationUUID: n.notificationUUID)
    }

    /// The customer is the event's own `customerId`.
    struct AccountLinked: Encodable {
        let kind: String
        let value: String
    }

    static func accountLinked(appId: UUID, kind: AccountLink.Kind, value: String, customer: UUID) throws -> NewEvent {
        try NewEvent(.accountLinked, appId: appId, environment: nil, customer: customer, data: AccountLinked(kind: kind.rawValue, value: value))
    }

    /// The customer it moved to is the event's own `customerId`.
    struct AccountTransferred: Encodable {
        let kind: String
        let value: String
        let previousCustomerId: String
    }

    static func accountTransferred(appId: UUID, kind: AccountLink.Kind, value: String, from previous: String, to customer: UUID) throws -> NewEvent {
        try NewEvent(
            .accountTransferred, appId: appId, environment: nil, customer: customer,
            data: AccountTransferred(kind: kind.rawValue, value: value, previousCustomerId: previous))
    }

    struct ConsumptionAnswered: Encodable {
        let requestId: String
        let transactionId: String
        /// For `consumption.sent`: which of Apple's endpoints was called.
        let api: String?
        /// For `consumption.notSent`: why nothing was sent.
        let reason: String?
    }

    /// `consumption.sent` or `consumption.notSent`, as a pending request closes.
    static func consumptionAnswered(_ r: RefundRequest, status: RefundRequest.Status, api: ConsumptionAPI?, reason: String?) throws -> NewEvent {
        try NewEvent(
            status == .sent ? .consumptionSent : .consumptionNotSent, appId: r.appId, environment: r.environment, customer: r.customer,
            data: ConsumptionAnswered(requestId: lower(r.id), transactionId: r.transactionId, api: api?.rawValue, reason: status == .sent ? nil : reason))
    }

    struct RenewalExtended: Encodable {
        let originalTransactionId: String
        let extendByDays: Int
        /// Apple's reason code: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
        let extendReasonCode: Int
        let requestIdentifier: String
        let effectiveDate: Date
        /// Who asked: an API key, a console user, the CLI.
        let requestedBy: String
    }

    static func renewalExtended(
        _ e: RenewalExtension, environment: AppStoreEnvironment, customer: UUID?, effectiveDate: Date, by actor: Actor
    ) throws
        -> NewEvent
    {
        try NewEvent(
            .subscriptionRenewalExtended, appId: e.appId, environment: environment, customer: customer,
            data: RenewalExtended(
                originalTransactionId: e.originalTransactionId ?? "", extendByDays: e.days, extendReasonCode: e.reasonCode,
                requestIdentifier: e.requestIdentifier, effectiveDate: effectiveDate, requestedBy: actor.description))
    }

    /// A grant as `entitlement.granted` and `entitlement.revoked` report it.
    struct GrantData: Encodable {
        let grantId: String
        let productId: String?
        let entitlement: String?
        let startsDate: Date
        let expiresDate: Date
        let reason: String
        let grantedBy: String
        let revokedDate: Date?
        let revokedBy: String?
        let revokeReason: String?
    }

    static func grant(_ kind: Event.Kind, _ g: Grant) throws -> NewEvent {
        try NewEvent(
            kind, appId: g.appId, environment: nil, customer: g.customer,
            data: GrantData(
                grantId: Grant.displayId(g.id), productId: g.productId, entitlement: g.entitlement, startsDate: g.startsDate, expiresDate: g.expiresDate,
                reason: g.reason, grantedBy: g.grantedBy, revokedDate: g.revokedDate, revokedBy: g.revokedBy, revokeReason: g.revokeReason))
    }

    /// What `customer.deleted` says: which erasure (`customers.delete` returned it), never who.
    struct CustomerDeleted: Encodable {
        let erasureId: String
    }

    static func customerDeleted(erasureId: String) throws -> NewEvent {
        try NewEvent(.customerDeleted, appId: nil, environment: nil, customer: nil, data: CustomerDeleted(erasureId: erasureId))
    }

    /// What `catalog.changed` says: the size of the new catalog, its entitlements, and who set it.
    struct CatalogChanged: Encodable {
        let products: Int
        let entitlements: [String]
        let updatedBy: String
    }

    static func catalogChanged(_ catalog: Catalog, by actor: Actor) throws -> NewEvent {
        try NewEvent(
            .catalogChanged, appId: nil, environment: nil, customer: nil,
            data: CatalogChanged(products: catalog.products.count, entitlements: catalog.entitlements.map(\.name), updatedBy: actor.description))
    }

    /// What `entitlements.changed` says: the customer's entitlement names before and after (sorted), and
    /// which were added and removed.
    struct EntitlementsChanged: Encodable {
        let before: [String]
        let after: [String]
        let added: [String]
        let removed: [String]
    }

    static func entitlementsChanged(customer: UUID, before: [String], after: [String]) throws -> NewEvent {
        try NewEvent(
            .entitlementsChanged, appId: nil, environment: nil, customer: customer,
            data: EntitlementsChanged(
                before: before, after: after, added: after.filter { !before.contains($0) }, removed: before.filter { !after.contains($0) }))
    }
}
