import AppStoreServer
import Foundation

/// A transaction (and, for a subscription, its renewal info) verified from Apple's signed data.
struct SignedPurchase: Sendable {
    let transaction: JWSTransactionDecodedPayload
    let signedTransaction: String
    let transactionJSON: String
    let renewal: JWSRenewalInfoDecodedPayload?
    let environment: AppStoreEnvironment
    let transactionId: String
    let originalTransactionId: String

    init(_ verified: VerifiedPayload, signedTransaction: String, renewal: JWSRenewalInfoDecodedPayload?, environment: AppStoreEnvironment, field: String) throws
    {
        let transaction = try verified.decode(JWSTransactionDecodedPayload.self)
        guard let transactionId = transaction.transactionId, let originalTransactionId = transaction.originalTransactionId else {
            throw StoregateError.invalid(field: field, reason: "has no transactionId or originalTransactionId")
        }
        self.transaction = transaction
        self.signedTransaction = signedTransaction
        self.transactionJSON = String(decoding: verified.payload, as: UTF8.self)
        self.renewal = renewal
        self.environment = verified.environment.map(AppStoreEnvironment.init(rawValue:)) ?? environment
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
    }

    var isSubscription: Bool { transaction.type == .autoRenewableSubscription }

    func stored(appId: UUID, customer: UUID?) -> StoredTransaction {
        StoredTransaction(
            appId: appId, environment: environment, transactionId: transactionId, originalTransactionId: originalTransactionId,
            appTransactionId: transaction.appTransactionId, customer: customer, productId: transaction.productId ?? "",
            productType: transaction.type ?? ProductType(rawValue: ""),
            purchaseDate: transaction.purchaseDate?.date, expiresDate: transaction.expiresDate?.date, revocationDate: transaction.revocationDate?.date,
            appAccountToken: transaction.appAccountToken?.uuid, signedDate: transaction.signedDate?.date, signedTransaction: signedTransaction,
            payload: transactionJSON, price: transaction.price, currency: transaction.currency, offerType: transaction.offerType,
            offerIdentifier: transaction.offerIdentifier)
    }

    /// The subscription as this data describes it; `status` is Apple's when it gave one, else derived.
    func subscription(appId: UUID, customer: UUID?, status: Status?, now: Date = Date()) -> Subscription {
        let signed = [transaction.signedDate?.date, renewal?.signedDate?.date].compactMap { $0 }.max() ?? now
        return Subscription(
            appId: appId, environment: environment, originalTransactionId: originalTransactionId,
            subscriptionGroupIdentifier: transaction.subscriptionGroupIdentifier, customer: customer, status: status ?? derivedStatus(now: now),
            productId: transaction.productId ?? "", latestTransactionId: transactionId, purchaseDate: transaction.purchaseDate?.date,
            expiresDate: transaction.expiresDate?.date, autoRenewStatus: renewal.map { $0.autoRenewStatus == .on },
            autoRenewProductId: renewal?.autoRenewProductId,
            inBillingRetry: renewal?.isInBillingRetryPeriod ?? false, gracePeriodExpiresDate: renewal?.gracePeriodExpiresDate?.date,
            offerType: transaction.offerType, offerIdentifier: transaction.offerIdentifier, price: transaction.price, currency: transaction.currency,
            signedDate: signed, offerPeriod: transaction.offerPeriod, renewal: renewal.map(RenewalTerms.init), billingPlanType: transaction.billingPlanType,
            commitment: Commitment(transaction))
    }

    /// Apple's status, worked out from the transaction and renewal info when the data carries none.
    func derivedStatus(now: Date) -> Status {
        if transaction.revocationDate != nil { return .revoked }
        if let expires = transaction.expiresDate?.date, expires > now { return .active }
        if let grace = renewal?.gracePeriodExpiresDate?.date, grace > now, renewal?.isInBillingRetryPeriod == true { return .billingGracePeriod }
        if renewal?.isInBillingRetryPeriod == true { return .billingRetry }
        return .expired
    }

    /// Stores the purchase in the tenant: links its `originalTransactionId` to the owner Apple's data names
    /// (or `fallback`), then the transaction and, for a subscription, its state unless `subscriptionState` is
    /// false (a transaction from history or a lookup may not be the subscription's latest). Returns the owner
    /// and the events the change makes (a new link, a new transaction, a subscription whose state changed, and
    /// their lifecycle events: `LifecycleEvents`), for the caller to append when its unit of work is done.
    @discardableResult
    func store(
        app: App, status: Status?, fallback: UUID? = nil, subscriptionState: Bool = true, in unit: any TenantUnit
    ) async throws -> (owner: UUID?, events: [NewEvent]) {
        let item = ToStore(purchase: self, app: app, status: status, fallback: fallback, subscriptionState: subscriptionState)
        return try await Self.store([item], in: unit)[0]
    }

    /// A purchase to store, with what `store` is told.
    struct ToStore: Sendable {
        let purchase: SignedPurchase
        let app: App
        let status: Status?
        var fallback: UUID? = nil
        var subscriptionState = true
    }

    /// Stores purchases of different series together, as `store` stores each: one statement per table for
    /// all of them (the links, the transactions, the subscriptions, the histories lifecycle events read),
    /// so that a batch of notifications costs a few statements rather than a few per notification. Returns
    /// each one's owner and events, in order.
    static func store(_ items: [ToStore], in unit: any TenantUnit) async throws -> [(owner: UUID?, events: [NewEvent])] {
        let owners = try await unit.customers.linkSeries(items.map { $0.purchase.ownerQuery(app: $0.app, fallback: $0.fallback) })
        let stored = zip(items, owners).map { item, owner in item.purchase.stored(appId: item.app.id, customer: owner.owner) }
        let new = try await unit.transactions.upsert(stored)
        let states = items.indices.filter { items[$0].purchase.isSubscription && items[$0].subscriptionState }
        let subscriptions = states.map { items[$0].purchase.subscription(appId: items[$0].app.id, customer: owners[$0].owner, status: items[$0].status) }
        let changed = try await unit.subscriptions.upsert(subscriptions)
        var changes: [Int: (Subscription, SubscriptionChange?)] = [:]
        for (index, state) in states.enumerated() { changes[state] = (subscriptions[index], changed[index]) }
        // The histories of the new subscription transactions, for their charges' lifecycle events.
        var histories: [UUID: [String: [SeriesTransaction]]] = [:]
        let charged = Dictionary(grouping: items.indices.filter { new[$0] && items[$0].purchase.isSubscription }, by: { items[$0].app.id })
        for (appId, indices) in charged {
            histories[appId] = try await unit.transactions.series(
                appId: appId, originalTransactionIds: indices.map { items[$0].purchase.originalTransactionId })
        }
        var results: [(owner: UUID?, events: [NewEvent])] = []
        for (index, item) in items.enumerated() {
            let (purchase, app, owner) = (item.purchase, item.app, owners[index].owner)
            var events: [NewEvent] = []
            if let owner, owners[index].linked {
                events.append(
                    try Events.accountLinked(appId: app.id, kind: .originalTransactionId, value: purchase.originalTransactionId, customer: owner))
            }
            if new[index] { events.append(try Events.purchaseCreated(stored[index])) }
            var signedDate = stored[index].signedDate ?? Date()
            let change = changes[index]?.1
            if let (subscription, _) = changes[index] {
                signedDate = subscription.signedDate
                if let change {
                    if let event = try Events.subscriptionUpdated(subscription, change) { events.append(event) }
                    // Watched past its new expiry, in case the renewal's notification never arrives.
                    if let expires = change.current.expiresDate, change.previous?.expiresDate != expires, change.current.status == .active,
                        change.current.autoRenewStatus != false, expires > Date()
                    {
                        try await unit.enqueue(
                            .checkRenewal, ref: Reconciliation.renewalRef(appId: app.id, originalTransactionId: purchase.originalTransactionId), due: expires)
                    }
                }
            }
            events += try await LifecycleEvents.stored(
                purchase, app: app, customer: owner, new: new[index], change: change, signedDate: signedDate,
                series: histories[app.id]?[purchase.originalTransactionId] ?? [], in: unit)
            results.append((owner, events))
        }
        return results
    }

    /// The series it belongs to in `app`, for `TransactionStore.lockSeries`.
    func series(in app: App) -> SeriesKey {
        SeriesKey(appId: app.id, environment: environment, originalTransactionId: originalTransactionId)
    }

    /// What Apple's data says of the series' owner.
    func ownerQuery(app: App, fallback: UUID?) -> SeriesOwnerQuery {
        SeriesOwnerQuery(
            appId: app.id, originalTransactionId: originalTransactionId, appAccountToken: transaction.appAccountToken?.uuid,
            appTransactionId: transaction.appTransactionId, fallback: fallback)
    }
}
