import AppStoreServer
import Foundation

/// Transactions and app transactions looked up through Apple's API, each verified and stored, and a
/// customer's purchases rebuilt from Apple (server-side restore).
public struct TransactionService: Sendable {
    let persistence: any Persistence
    let gateway: AppStoreGateway
    let verification: Verification
    let directory: AppDirectory

    /// A transaction as Apple signed it, verified, with the tenant's id of the customer it is stored for.
    public struct Found: Sendable {
        public let transaction: JWSTransactionDecodedPayload
        public let environment: AppStoreEnvironment
        public let customerId: String?
    }

    /// Get Transaction Info: the transaction, verified and stored (a subscription's state is left to
    /// status reads and notifications, since this may not be its latest transaction).
    public func get(tenant: Tenant, bundleId: String, transactionId: String) async throws -> Found {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        let id = try Validate.transactionId(transactionId, field: "transactionId")
        let known = try await persistence.inTenant(tenant, .read) { try await $0.transactions.facts(appId: app.id, transactionId: id) }
        let (response, environment) = try await gateway.firstEnvironment(tenant: tenant, app: app, preferring: known?.environment, field: "transactionId") {
            client throws(AppStoreServerAPIError) in try await client.getTransactionInfo(transactionId: id)
        }
        guard let signed = response.signedTransactionInfo else {
            throw StoregateError.appStore(field: "transactionId", code: nil, reason: "Apple answered without signedTransactionInfo", retryable: false)
        }
        let purchase = try await verification.purchase(
            signedTransaction: signed, signedRenewalInfo: nil, app: app, environment: environment, field: "signedTransactionInfo")
        let customerId = try await persistence.inTenant(tenant) { unit in
            let (owner, events) = try await purchase.store(app: app, status: nil, subscriptionState: false, in: unit)
            try await unit.events.append(events)
            guard let owner else { return nil as String? }
            return try await unit.customers.find(id: owner)?.customerId
        }
        return Found(transaction: purchase.transaction, environment: purchase.environment, customerId: customerId)
    }

    /// Apple's Finish Transaction for a transaction whose content the tenant's server delivered, in the
    /// environment Storegate knows it from (else Production, then Sandbox); audited. Returns the environment.
    public func finish(tenant: Tenant, bundleId: String, transactionId: String, actor: Actor) async throws -> AppStoreEnvironment {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        let id = try Validate.transactionId(transactionId, field: "transactionId")
        let known = try await persistence.inTenant(tenant, .read) { try await $0.transactions.facts(appId: app.id, transactionId: id) }
        let (_, environment) = try await gateway.firstEnvironment(tenant: tenant, app: app, preferring: known?.environment, field: "transactionId") {
            client throws(AppStoreServerAPIError) in try await client.finishTransaction(transactionId: id)
        }
        try await persistence.inTenant(tenant, .read) { unit in
            try await unit.audit(
                actor, "apple.finishTransaction", ["bundleId": app.bundleId, "transactionId": id, "environment": environment.rawValue])
        }
        return environment
    }

    /// Which transactions of the history to return; Apple's own filters.
    public struct HistoryFilter: Sendable {
        public var startDate: Date?
        public var endDate: Date?
        public var productIds: [String]?
        public var productTypes: [ProductType]?
        public var subscriptionGroupIdentifiers: [String]?
        public var inAppOwnershipType: InAppOwnershipType?
        public var revoked: Bool?
        /// Apple sorts by when a transaction was last modified, oldest first unless `DESCENDING`.
        public var sort: Order?

        public init() {}
    }

    /// Pages of a customer's transaction history.
    public struct HistoryPage: Sendable {
        public let transactions: [JWSTransactionDecodedPayload]
        public let environment: AppStoreEnvironment
        /// Where to continue (`cursor` of the next call) while `hasMore`.
        public let cursor: String?
        public let hasMore: Bool
    }

    /// How many transactions `history` gathers before it stops (a page of Apple's is never split).
    public static let historyPage = PageSize(standard: 200, maximum: 1000)

    /// Get Transaction History for the customer behind any of their transaction IDs: Apple's pages are
    /// followed until at least `limit` transactions are in hand or none are left (a page is never split),
    /// each transaction verified and stored. `cursor` continues where a previous call stopped.
    public func history(
        tenant: Tenant, bundleId: String, transactionId: String, filter: HistoryFilter, cursor: String?, limit: Int?
    ) async throws -> HistoryPage {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        let id = try Validate.transactionId(transactionId, field: "transactionId")
        let request = try Self.request(filter)
        let limit = try Self.historyPage.limit(limit)
        let start = try cursor.map(Cursor.init(parsing:))
        if let start, !app.environments.contains(start.environment) {
            throw StoregateError.invalid(field: "cursor", reason: "is not a cursor of this app's transaction history")
        }
        let (page, environment) = try await gateway.firstEnvironment(tenant: tenant, app: app, preferring: start?.environment, field: "transactionId") {
            client throws(AppStoreServerAPIError) in
            try await Self.historyPages(client, anyTransactionId: id, request: request, from: start?.revision, limit: limit)
        }
        let purchases = try await verifiedPurchases(page.signed, app: app, environment: environment)
        try await persistence.inTenant(tenant) { unit in
            var events: [NewEvent] = []
            try await unit.transactions.lockSeries(purchases.map { $0.series(in: app) })
            for purchase in purchases { events += try await purchase.store(app: app, status: nil, subscriptionState: false, in: unit).events }
            try await unit.events.append(events)
        }
        return HistoryPage(
            transactions: purchases.map(\.transaction), environment: environment,
            cursor: page.hasMore ? page.revision.map { Cursor(environment: environment, revision: $0).text } : nil, hasMore: page.hasMore)
    }

    /// Get App Transaction Info for the customer behind any of their transaction IDs: verified, stored,
    /// and returned with the customer its `appTransactionId` is linked to and any rescinded consent.
    public func appTransaction(tenant: Tenant, bundleId: String, transactionId: String) async throws -> AppTransactionInfo {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        let id = try Validate.transactionId(transactionId, field: "transactionId")
        let (response, environment) = try await gateway.firstEnvironment(tenant: tenant, app: app, field: "transactionId") {
            client throws(AppStoreServerAPIError) in try await client.getAppTransactionInfo(anyTransactionId: id)
        }
        guard let signed = response.signedAppTransactionInfo else {
            throw StoregateError.appStore(field: "transactionId", code: nil, reason: "Apple answered without signedAppTransactionInfo", retryable: false)
        }
        let appTransaction = try await verification.appTransaction(signed, app: app, environment: environment, field: "signedAppTransactionInfo")
        return try await persistence.inTenant(tenant) { unit in
            try await unit.appTransactions.upsert(appTransaction)
            let stored = try await unit.appTransactions.find(appId: app.id, appTransactionId: appTransaction.appTransactionId) ?? appTransaction
            var customerId: String?
            if let owner = stored.customer { customerId = try await unit.customers.find(id: owner)?.customerId }
            return AppTransactionInfo(stored, bundleId: app.bundleId, customerId: customerId)
        }
    }

    /// External purchase tokens Apple announced, newest first.
    public static let externalPurchaseTokensPage = PageSize(standard: 100, maximum: 500)

    public func externalPurchaseTokens(tenant: Tenant, bundleId: String?, limit: Int?) async throws -> [ExternalPurchaseTokenItem] {
        let limit = try Self.externalPurchaseTokensPage.limit(limit)
        let appId = try await persistence.appId(tenant, bundleId: bundleId)
        let rows = try await persistence.inTenant(tenant, .read) { try await $0.externalPurchaseTokens.list(appId: appId, limit: limit) }
        let bundles = try await directory.bundleIds(tenant: tenant, covering: rows.map(\.appId))
        return rows.map { ExternalPurchaseTokenItem($0, bundleId: bundles[$0.appId] ?? "") }
    }

    /// Apple's history pages from `revision` on, until at least `limit` signed transactions or the last page.
    static func historyPages(
        _ client: AppStoreServerAPIClient, anyTransactionId id: String, request: TransactionHistoryRequest = TransactionHistoryRequest(),
        from revision: String? = nil, limit: Int = .max
    ) async throws(AppStoreServerAPIError) -> (signed: [String], revision: String?, hasMore: Bool) {
        var signed: [String] = []
        var revision = revision
        var hasMore = true
        while hasMore && signed.count < limit {
            let page = try await client.getTransactionHistory(anyTransactionId: id, revision: revision, request: request)
            signed += page.signedTransactions ?? []
            hasMore = page.hasMore == true && page.revision != nil
            revision = page.revision
        }
        return (signed, revision, hasMore)
    }

    func verifiedPurchases(_ signed: [String], app: App, environment: AppStoreEnvironment) async throws -> [SignedPurchase] {
        var purchases: [SignedPurchase] = []
        for jws in signed {
            purchases.append(
                try await verification.purchase(signedTransaction: jws, signedRenewalInfo: nil, app: app, environment: environment, field: "signedTransactions")
            )
        }
        return purchases
    }

    static func request(_ filter: HistoryFilter) throws -> TransactionHistoryRequest {
        if let start = filter.startDate, let end = filter.endDate, start >= end {
            throw StoregateError.invalid(field: "endDate", reason: "must be after startDate")
        }
        for type in filter.productTypes ?? [] where !type.isKnown {
            throw StoregateError.invalid(field: "productTypes", reason: "must be among \(ProductType.known.map(\.rawValue).joined(separator: ", "))")
        }
        if let ownership = filter.inAppOwnershipType, !ownership.isKnown {
            throw StoregateError.invalid(field: "inAppOwnershipType", reason: "must be PURCHASED or FAMILY_SHARED")
        }
        if let sort = filter.sort, !sort.isKnown { throw StoregateError.invalid(field: "sort", reason: "must be ASCENDING or DESCENDING") }
        for id in filter.productIds ?? [] { _ = try Validate.text(id, field: "productIds", max: 255) }
        for group in filter.subscriptionGroupIdentifiers ?? [] { _ = try Validate.text(group, field: "subscriptionGroupIdentifiers", max: 255) }
        return TransactionHistoryRequest(
            startDate: filter.startDate.map(Timestamp.init), endDate: filter.endDate.map(Timestamp.init), productIds: filter.productIds,
            productTypes: filter.productTypes, sort: filter.sort, subscriptionGroupIdentifiers: filter.subscriptionGroupIdentifiers,
            inAppOwnershipType: filter.inAppOwnershipType, revoked: filter.revoked)
    }

    /// Storegate's history cursor: the environment Apple's `revision` belongs to, and the revision.
    struct Cursor {
        let environment: AppStoreEnvironment
        let revision: String

        init(environment: AppStoreEnvironment, revision: String) {
            self.environment = environment
            self.revision = revision
        }

        init(parsing text: String) throws {
            let parts = text.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, !parts[1].isEmpty, parts[1].utf8.count <= 512 else {
                throw StoregateError.invalid(field: "cursor", reason: "must be a cursor returned by transactions.history")
            }
            self.init(environment: AppStoreEnvironment(rawValue: String(parts[0])), revision: String(parts[1]))
        }

        var text: String { environment.rawValue + ":" + revision }
    }
}
