import AppStoreServer
import Foundation

/// Subscription status and entitlements, kept from notifications and refreshed from Apple; renewal-date extensions.
public struct SubscriptionService: Sendable {
    let persistence: any Persistence
    let gateway: AppStoreGateway
    let verification: Verification
    let holdings: HoldingsCache
    let directory: AppDirectory
    /// The tenant's catalog, through this process's cache: the names access is answered in.
    let catalog: CatalogService

    /// The subscriptions of a customer (`customerId`), or of the customer behind an app's transaction, from
    /// the holdings cache. With `refresh`, Apple's Get All Subscription Statuses is called first and
    /// reconciled into local state, and the cache is bypassed.
    public func status(tenant: Tenant, customerId: String?, bundleId: String?, transactionId: String?, refresh: Bool) async throws -> [SubscriptionStatus] {
        let states = try await self.states(tenant: tenant, customerId: customerId, bundleId: bundleId, transactionId: transactionId, refresh: refresh)
        let bundles = try await directory.bundleIds(tenant: tenant, covering: states.map(\.subscription.appId))
        return states.map { SubscriptionStatus($0, bundleId: bundles[$0.subscription.appId] ?? "") }
    }

    func states(tenant: Tenant, customerId: String?, bundleId: String?, transactionId: String?, refresh: Bool) async throws -> [SubscriptionState] {
        switch (customerId, transactionId) {
        case (let customerId?, nil):
            let customerId = try Validate.customerId(customerId)
            if refresh {
                guard let customer = try await persistence.inTenant(tenant, .read, { try await $0.customers.find(customerId: customerId) }) else {
                    throw StoregateError.notFound(field: "customerId")
                }
                try await refreshCustomer(tenant: tenant, customer: customer.id)
            }
            guard let holdings = try await customerHoldings(tenant, customerId: customerId, purchases: false, bypassingCache: refresh) else {
                throw StoregateError.notFound(field: "customerId")
            }
            return holdings.subscriptions.map { SubscriptionState($0) }
        case (nil, let transactionId?):
            guard let bundleId else { throw StoregateError.invalid(field: "bundleId", reason: "is required with a transaction ID") }
            let app = try await persistence.app(tenant, bundleId: bundleId)
            let id = try Validate.transactionId(transactionId, field: "transactionId")
            return try await owned(tenant: tenant, app: app, transactionId: id, refresh: refresh).subscriptions.map { SubscriptionState($0) }
        default:
            throw StoregateError.invalid(field: "customerId", reason: "give exactly one of customerId and transactionId")
        }
    }

    /// The subscriptions, in `app`, of the customer who owns the transaction `id` (any of theirs), and that
    /// customer; with no customer linked, the subscriptions of the transaction's original transaction.
    /// Through the holdings cache, unless `refresh` calls Apple's Get All Subscription Statuses first.
    func owned(tenant: Tenant, app: App, transactionId id: String, refresh: Bool = false) async throws -> (owner: UUID?, subscriptions: [Subscription]) {
        let subject = HoldingsCache.Subject.transaction(appId: app.id, transactionId: id)
        if !refresh, let cached = holdings.cached(tenant: tenant.id, subject) { return (cached.customer, cached.subscriptions) }
        let since = holdings.loadStarts()
        let known = try await persistence.inTenant(tenant, .read) { try await $0.transactions.facts(appId: app.id, transactionId: id) }
        var originals: Set<String> = [known?.originalTransactionId ?? id]
        if refresh {
            originals.formUnion(
                try await self.refresh(tenant: tenant, app: app, anyTransactionId: id, environment: known?.environment, customer: known?.customer))
        }
        let found = try await persistence.inTenant(tenant, .read) { unit -> (owner: UUID?, [Subscription]) in
            if let customer = try await unit.transactions.facts(appId: app.id, transactionId: id)?.customer {
                return (customer, try await unit.subscriptions.list(customer: customer).filter { $0.appId == app.id })
            }
            var found: [Subscription] = []
            for original in originals.sorted() { found += try await unit.subscriptions.list(appId: app.id, originalTransactionId: original) }
            return (nil, found)
        }
        // Only a customer's subscriptions are remembered: changes are heard by customer.
        if let owner = found.owner {
            holdings.remember(Holdings(customer: owner, subscriptions: found.1, purchases: []), tenant: tenant.id, subject, loadedSince: since)
        }
        return (found.owner, found.1)
    }

    /// A customer's holdings, through the cache unless bypassed (the read after a refresh).
    private func customerHoldings(_ tenant: Tenant, customerId: String, purchases: Bool, bypassingCache: Bool = false) async throws -> Holdings? {
        let load = { try await persistence.inTenant(tenant, .read) { try await $0.customers.holdings(customerId: customerId, purchases: purchases) } }
        guard !bypassingCache else { return try await load() }
        return try await holdings.holdings(tenant: tenant.id, .customer(customerId, purchases: purchases), load: load)
    }

    /// Refreshes every subscription Storegate links to the customer, one call per app and environment.
    private func refreshCustomer(tenant: Tenant, customer: UUID) async throws {
        let (subscriptions, links, apps) = try await persistence.inTenant(tenant, .read) { unit in
            (try await unit.subscriptions.list(customer: customer), try await unit.customers.links(customer: customer), try await unit.apps.list())
        }
        var anchor: [UUID: (id: String, environment: AppStoreEnvironment?)] = [:]
        for subscription in subscriptions where anchor[subscription.appId] == nil {
            anchor[subscription.appId] = (subscription.originalTransactionId, subscription.environment)
        }
        for link in links where anchor[link.appId] == nil && link.kind == .originalTransactionId { anchor[link.appId] = (link.value, nil) }
        for (appId, (id, environment)) in anchor {
            guard let app = apps.first(where: { $0.id == appId }) else { continue }
            _ = try await refresh(tenant: tenant, app: app, anyTransactionId: id, environment: environment, customer: customer)
        }
    }

    /// Calls Get All Subscription Statuses and stores what it says, verified. Returns the original transaction IDs seen.
    func refresh(tenant: Tenant, app: App, anyTransactionId: String, environment: AppStoreEnvironment?, customer: UUID?) async throws -> Set<String> {
        let (response, environment) = try await gateway.firstEnvironment(tenant: tenant, app: app, preferring: environment, field: "transactionId") {
            client throws(AppStoreServerAPIError) in try await client.getAllSubscriptionStatuses(anyTransactionId: anyTransactionId)
        }
        var purchases: [(SignedPurchase, Status?)] = []
        for group in response.data ?? [] {
            for item in group.lastTransactions ?? [] {
                guard let signed = item.signedTransactionInfo else { continue }
                let purchase = try await verification.purchase(
                    signedTransaction: signed, signedRenewalInfo: item.signedRenewalInfo, app: app, environment: environment, field: "signedTransactionInfo")
                purchases.append((purchase, item.status))
            }
        }
        return try await persistence.inTenant(tenant) { unit in
            var events: [NewEvent] = []
            try await unit.transactions.lockSeries(purchases.map { $0.0.series(in: app) })
            for (purchase, status) in purchases { events += try await purchase.store(app: app, status: status, fallback: customer, in: unit).events }
            try await unit.events.append(events)
            return Set(purchases.map(\.0.originalTransactionId))
        }
    }

    /// A customer's entitlements: subscriptions that grant access, purchases of every other type that are
    /// neither revoked nor expired, grants in force, and the catalog's entitlements they give (`active`).
    public func entitlements(tenant: Tenant, customerId: String) async throws -> Entitlements {
        let customerId = try Validate.customerId(customerId)
        let now = Date()
        guard let holdings = try await customerHoldings(tenant, customerId: customerId, purchases: true) else {
            throw StoregateError.notFound(field: "customerId")
        }
        return try await Entitlements(
            tenant: tenant, customerId: customerId, subscriptions: holdings.subscriptions.map { SubscriptionState($0, now: now) }.filter(\.grantsAccess),
            purchases: holdings.purchases.filter { $0.grantsAccess(now: now) }, grants: holdings.grants.filter { $0.grantsAccess(now: now) },
            catalog: try await catalog.cached(tenant: tenant), directory: directory)
    }

    /// Whether the customer has `entitlement` now, from the holdings cache and the catalog's cache: no
    /// database round trip once both are held. Refused, naming `entitlement`, for a name the catalog does
    /// not declare when it declares some.
    public func check(tenant: Tenant, customerId: String, entitlement: String) async throws -> EntitlementCheck {
        let customerId = try Validate.customerId(customerId)
        let name = try Validate.rule(.entitlementName, entitlement, field: "entitlement")
        let catalog = try await catalog.cached(tenant: tenant)
        guard catalog.accepts(entitlement: name) else { throw StoregateError.invalid(field: "entitlement", reason: "is not an entitlement of the catalog") }
        guard let holdings = try await customerHoldings(tenant, customerId: customerId, purchases: true) else {
            throw StoregateError.notFound(field: "customerId")
        }
        let bundleIds = try await directory.bundleIds(
            tenant: tenant, covering: holdings.subscriptions.map(\.appId) + holdings.purchases.map(\.appId) + holdings.grants.compactMap(\.appId))
        let active = ActiveEntitlements(catalog: catalog, holdings: holdings, now: Date(), bundleIds: bundleIds)
        return EntitlementCheck(customerId: customerId, entitlement: name, active.entitlement(named: name))
    }
}
