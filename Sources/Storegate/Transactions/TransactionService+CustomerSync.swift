import AppStoreServer
import Contract
import Foundation

/// Server-side restore: a customer's purchases rebuilt from Apple, for every app where Storegate knows
/// one of the customer's identifiers.
extension TransactionService {
    /// What a sync found in one app.
    @RPCObject public struct SyncedApp: Sendable {
        public let bundleId: String
        @Field(.appStoreEnvironment) public let environment: String
        /// Transactions in Apple's history, verified and stored.
        @Field(.minimum(0)) public let transactions: Int
        /// Subscriptions whose status Apple gave.
        @Field(.minimum(0)) public let subscriptions: Int
    }

    /// What `customers.sync` answers: each app synced, then the customer's subscriptions after the sync
    /// and their other purchases that grant access now.
    @RPCObject public struct Sync: Sendable {
        public let customerId: String
        public let apps: [SyncedApp]
        public let subscriptions: [SubscriptionStatus]
        public let purchases: [OwnedPurchase]
    }

    /// For each app with one of the customer's identifiers (a linked `originalTransactionId` or
    /// `appTransactionId`, or a stored transaction), reads the whole transaction history and every
    /// subscription's status from Apple, verifies each, and stores them: transactions no one owns are
    /// linked to this customer; ones another customer owns stay theirs.
    public func sync(tenant: Tenant, customerId: String, actor: Actor) async throws -> Sync {
        let customerId = try Validate.customerId(customerId)
        let (customer, anchors, apps) = try await persistence.inTenant(tenant, .read) { unit in
            guard let customer = try await unit.customers.find(customerId: customerId) else { throw StoregateError.notFound(field: "customerId") }
            var anchors: [UUID: (id: String, environment: AppStoreEnvironment?)] = [:]
            for subscription in try await unit.subscriptions.list(customer: customer.id) where anchors[subscription.appId] == nil {
                anchors[subscription.appId] = (subscription.originalTransactionId, subscription.environment)
            }
            for purchase in try await unit.transactions.oneTimePurchases(customer: customer.id) where anchors[purchase.appId] == nil {
                anchors[purchase.appId] = (purchase.transactionId, purchase.environment)
            }
            for link in try await unit.customers.links(customer: customer.id) where anchors[link.appId] == nil { anchors[link.appId] = (link.value, nil) }
            return (customer, anchors, try await unit.apps.list())
        }
        var synced: [SyncedApp] = []
        for app in apps.sorted(by: { $0.bundleId < $1.bundleId }) {
            guard let anchor = anchors[app.id] else { continue }
            synced.append(try await sync(tenant: tenant, app: app, anyTransactionId: anchor.id, environment: anchor.environment, customer: customer.id))
        }
        let now = Date()
        let (subscriptions, purchases) = try await persistence.inTenant(tenant) { unit in
            try await unit.audit(actor, "customer.sync", ["customerId": customerId, "apps": String(synced.count)])
            return (
                try await unit.subscriptions.list(customer: customer.id).map { SubscriptionState($0, now: now) },
                try await unit.transactions.oneTimePurchases(customer: customer.id).filter { $0.grantsAccess(now: now) }
            )
        }
        let holdings = try await Entitlements(
            tenant: tenant, customerId: customer.customerId, subscriptions: subscriptions, purchases: purchases, directory: directory)
        return Sync(customerId: customer.customerId, apps: synced, subscriptions: holdings.subscriptions, purchases: holdings.purchases)
    }

    private func sync(tenant: Tenant, app: App, anyTransactionId id: String, environment: AppStoreEnvironment?, customer: UUID) async throws -> SyncedApp {
        let (found, used) = try await gateway.firstEnvironment(tenant: tenant, app: app, preferring: environment, field: "customerId") {
            client throws(AppStoreServerAPIError) in
            let history = try await Self.historyPages(client, anyTransactionId: id)
            return (history: history.signed, statuses: try await client.getAllSubscriptionStatuses(anyTransactionId: id))
        }
        let history = try await verifiedPurchases(found.history, app: app, environment: used)
        var latest: [(SignedPurchase, Status?)] = []
        for item in found.statuses.data?.flatMap({ $0.lastTransactions ?? [] }) ?? [] {
            guard let signed = item.signedTransactionInfo else { continue }
            latest.append(
                (
                    try await verification.purchase(
                        signedTransaction: signed, signedRenewalInfo: item.signedRenewalInfo, app: app, environment: used, field: "signedTransactionInfo"),
                    item.status
                ))
        }
        try await persistence.inTenant(tenant) { unit in
            var events: [NewEvent] = []
            try await unit.transactions.lockSeries((history + latest.map(\.0)).map { $0.series(in: app) })
            for purchase in history {
                events += try await purchase.store(app: app, status: nil, fallback: customer, subscriptionState: false, in: unit).events
            }
            for (purchase, status) in latest { events += try await purchase.store(app: app, status: status, fallback: customer, in: unit).events }
            try await unit.events.append(events)
        }
        return SyncedApp(bundleId: app.bundleId, environment: used.rawValue, transactions: history.count, subscriptions: latest.count)
    }
}
