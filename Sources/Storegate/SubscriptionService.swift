import AppStoreServer
import Foundation
import PostgresNIO
import StoregatePostgres

/// A subscription as callers see it: Apple's status, with an active one that has passed its expiry
/// (and no renewal arrived) read as expired.
public struct SubscriptionState: Sendable {
    public let row: SubscriptionRow
    public let status: Status

    init(_ row: SubscriptionRow, now: Date = Date()) {
        self.row = row
        let stored = Status(rawValue: row.status)
        if stored == .active, let expires = row.expiresDate, expires < now {
            status = .expired
        } else if stored == .billingGracePeriod, let grace = row.gracePeriodExpiresDate, grace < now {
            status = .billingRetry
        } else {
            status = stored
        }
    }

    /// Whether the customer has access: active, or in the billing grace period.
    public var grantsAccess: Bool { status == .active || status == .billingGracePeriod }
}

/// Subscription status and entitlements, kept from notifications and refreshed from Apple; renewal-date extensions.
public struct SubscriptionService: Sendable {
    let database: Database
    let repositories: Repositories
    let accounts: AccountRepository
    let subscriptions: SubscriptionRepository
    let refunds: RefundRepository
    let gateway: AppStoreGateway
    let chains: ChainVerifier
    let allowUnsignedEnvironments: Bool

    /// The subscriptions of a customer (`customerId`), or of the customer behind an app's transaction.
    /// With `refresh`, Apple's Get All Subscription Statuses is called first and reconciled into local state.
    public func status(tenant: TenantRecord, customerId: String?, bundleId: String?, transactionId: String?, refresh: Bool) async throws -> [SubscriptionState] {
        switch (customerId, transactionId) {
        case (let customerId?, nil):
            let customerId = try Validate.text(customerId, field: "customerId", max: 128)
            let customer = try await database.withConnection { conn in
                guard let customer = try await accounts.customer(customerId: customerId, in: tenant.schema, on: conn) else { throw StoregateError.notFound(field: "customerId") }
                return customer
            }
            if refresh { try await refreshCustomer(tenant: tenant, customer: customer.id) }
            return try await database.withConnection { try await subscriptions.list(customer: customer.id, in: tenant.schema, on: $0) }.map { SubscriptionState($0) }
        case (nil, let transactionId?):
            let app = try await app(tenant: tenant, bundleId: bundleId)
            let id = try Validate.transactionId(transactionId, field: "transactionId")
            let known = try await database.withConnection { try await accounts.transactionFacts(appId: app.id, transactionId: id, in: tenant.schema, on: $0) }
            var originals: Set<String> = [known?.originalTransactionId ?? id]
            if refresh { originals.formUnion(try await self.refresh(tenant: tenant, app: app, anyTransactionId: id, environment: known?.environment, customer: known?.customer)) }
            return try await database.withConnection { conn in
                if let customer = try await accounts.transactionFacts(appId: app.id, transactionId: id, in: tenant.schema, on: conn)?.customer {
                    return try await subscriptions.list(customer: customer, in: tenant.schema, on: conn).filter { $0.appId == app.id }
                }
                var rows: [SubscriptionRow] = []
                for original in originals.sorted() { rows += try await subscriptions.list(appId: app.id, originalTransactionId: original, in: tenant.schema, on: conn) }
                return rows
            }.map { SubscriptionState($0) }
        default:
            throw StoregateError.invalid(field: "customerId", reason: "give exactly one of customerId and transactionId")
        }
    }

    /// Refreshes every subscription Storegate links to the customer, one call per app and environment.
    private func refreshCustomer(tenant: TenantRecord, customer: UUID) async throws {
        let (rows, links, apps) = try await database.withConnection { conn in
            (
                try await subscriptions.list(customer: customer, in: tenant.schema, on: conn), try await accounts.links(customer: customer, in: tenant.schema, on: conn),
                try await repositories.apps.list(tenantId: tenant.id, on: conn)
            )
        }
        var anchor: [UUID: (id: String, environment: String?)] = [:]
        for row in rows where anchor[row.appId] == nil { anchor[row.appId] = (row.originalTransactionId, row.environment) }
        for link in links where anchor[link.appId] == nil && link.kind == "originalTransactionId" { anchor[link.appId] = (link.value, nil) }
        for (appId, (id, environment)) in anchor {
            guard let app = apps.first(where: { $0.id == appId }) else { continue }
            _ = try await refresh(tenant: tenant, app: app, anyTransactionId: id, environment: environment, customer: customer)
        }
    }

    /// Calls Get All Subscription Statuses and stores what it says, verified. Returns the original transaction IDs seen.
    private func refresh(tenant: TenantRecord, app: AppRecord, anyTransactionId: String, environment: String?, customer: UUID?) async throws -> Set<String> {
        let (response, environment) = try await gateway.firstEnvironment(tenantId: tenant.id, app: app, preferring: environment, field: "transactionId") {
            client throws(AppStoreServerAPIError) in try await client.getAllSubscriptionStatuses(anyTransactionId: anyTransactionId)
        }
        var purchases: [(SignedPurchase, Status?)] = []
        for group in response.data ?? [] {
            for item in group.lastTransactions ?? [] {
                guard let signed = item.signedTransactionInfo else { continue }
                let purchase = try await SignedPurchase.verify(
                    signedTransaction: signed, signedRenewalInfo: item.signedRenewalInfo, app: app, environment: environment, chains: chains,
                    allowUnsignedEnvironments: allowUnsignedEnvironments, field: "signedTransactionInfo")
                purchases.append((purchase, item.status))
            }
        }
        return try await database.transaction { conn in
            var seen = Set<String>()
            for (purchase, status) in purchases {
                let owner = try await accounts.customerOf(
                    appId: app.id, originalTransactionId: purchase.originalTransactionId, appAccountToken: purchase.transaction.appAccountToken?.uuid,
                    appTransactionId: purchase.transaction.appTransactionId, in: tenant.schema, on: conn) ?? customer
                if let owner {
                    try await accounts.linkIfUnlinked(appId: app.id, kind: "originalTransactionId", value: purchase.originalTransactionId, customer: owner, in: tenant.schema, on: conn)
                }
                try await accounts.upsert(purchase.transactionRow(appId: app.id, customer: owner), in: tenant.schema, on: conn)
                try await subscriptions.upsert(purchase.subscriptionRow(appId: app.id, customer: owner, status: status), in: tenant.schema, on: conn)
                seen.insert(purchase.originalTransactionId)
            }
            return seen
        }
    }

    /// A customer's entitlements: subscriptions that grant access, and purchases of every other type that
    /// are neither revoked nor expired.
    public func entitlements(tenant: TenantRecord, customerId: String) async throws -> (subscriptions: [SubscriptionState], purchases: [OneTimePurchase]) {
        let customerId = try Validate.text(customerId, field: "customerId", max: 128)
        let now = Date()
        return try await database.withConnection { conn in
            guard let customer = try await accounts.customer(customerId: customerId, in: tenant.schema, on: conn) else { throw StoregateError.notFound(field: "customerId") }
            let subscriptions = try await subscriptions.list(customer: customer.id, in: tenant.schema, on: conn).map { SubscriptionState($0, now: now) }.filter(\.grantsAccess)
            let purchases = try await self.subscriptions.oneTimePurchases(customer: customer.id, in: tenant.schema, on: conn).filter {
                $0.revocationDate == nil && ($0.expiresDate.map { $0 > now } ?? true)
            }
            return (subscriptions, purchases)
        }
    }

    func app(tenant: TenantRecord, bundleId: String?) async throws -> AppRecord {
        guard let bundleId else { throw StoregateError.invalid(field: "bundleId", reason: "is required with a transaction ID") }
        let valid = try Validate.bundleId(bundleId)
        return try await database.withConnection { conn in
            guard let app = try await repositories.apps.find(tenantId: tenant.id, bundleId: valid, on: conn) else { throw StoregateError.notFound(field: "bundleId") }
            return app
        }
    }
}
