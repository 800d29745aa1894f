import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `transactions.*`, `appTransactions.get`, `customers.sync` and `externalPurchaseTokens.list`: Apple's
/// transaction lookups, each answer verified and stored.
enum TransactionMethods {
    static let all = [get, history, appTransaction, sync, externalPurchaseTokens]

    static let lookupErrors = [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError, ErrorCode.signedDataInvalid]

    @RPCParams struct GetParams {
        @Field(.bundleId) let bundleId: String
        /// The transaction's ID.
        @Field(.transactionId) let transactionId: String
    }

    @RPCObject struct GetResult {
        let transaction: TransactionView
        /// The customer Storegate links the transaction to, if any.
        let customerId: String?
    }

    static let get = RPCMethod<RPCCall>(
        "transactions.get", tag: "transactions", summary: "One transaction from Apple, verified and stored.",
        description: """
            Apple's Get Transaction Info, in the app's environments (Production first) until one knows the transaction. The signed transaction is \
            verified and stored, linked to the customer who owns its originalTransactionId when there is one. A subscription's state is not \
            changed by it (it may not be the latest transaction): use `subscriptions.status` with `refresh`.
            """, result: "transaction", errors: lookupErrors
    ) { (p: GetParams, call) in
        let found = try await call.services.transactions.get(tenant: call.caller.tenant, bundleId: p.bundleId, transactionId: p.transactionId)
        let customers = try await call.services.accounts.customerIds(tenant: call.caller.tenant, ids: Set([found.customer].compactMap { $0 }))
        return GetResult(transaction: TransactionView(found.transaction), customerId: found.customer.flatMap { customers[$0] })
    }

    @RPCParams struct HistoryParams {
        @Field(.bundleId) let bundleId: String
        /// Any transaction ID of the customer.
        @Field(.transactionId) let transactionId: String
        /// Only transactions purchased at or after this time (ISO 8601).
        let startDate: Date?
        /// Only transactions purchased before this time (ISO 8601).
        let endDate: Date?
        /// Only these products.
        @Field(.text(max: 255)) let productIds: [String]?
        /// Only these product types.
        let productTypes: [ProductType]?
        /// Only these subscription groups.
        @Field(.text(max: 255)) let subscriptionGroupIdentifiers: [String]?
        /// PURCHASED or FAMILY_SHARED.
        let inAppOwnershipType: InAppOwnershipType?
        /// Only revoked (true) or only not revoked (false) transactions.
        let revoked: Bool?
        /// By when Apple last modified each transaction: ASCENDING (default) or DESCENDING.
        let sort: Order?
        /// The `cursor` of the previous call, to continue.
        @Field(.maxLength(600)) let cursor: String?
        /// Stop after at least this many transactions (default 200); Apple's pages are never split.
        @Field(.range(1...1000)) let limit: Int?
    }

    @RPCObject struct HistoryResult {
        let transactions: [TransactionView]
        let environment: String
        let hasMore: Bool
        /// Pass as `cursor` to continue; present while hasMore.
        let cursor: String?
    }

    static let history = RPCMethod<RPCCall>(
        "transactions.history", tag: "transactions", summary: "A customer's transaction history from Apple, every page, verified and stored.",
        description: """
            Apple's Get Transaction History (v2) for the customer behind any of their transaction IDs, with Apple's filters. Pages are followed \
            until `limit` is reached or none are left; with more left, `cursor` continues. Each transaction is verified and stored.
            """, result: "transactionHistory", errors: lookupErrors
    ) { (p: HistoryParams, call) in
        var filter = TransactionService.HistoryFilter()
        filter.startDate = p.startDate
        filter.endDate = p.endDate
        filter.productIds = p.productIds
        filter.productTypes = p.productTypes
        filter.subscriptionGroupIdentifiers = p.subscriptionGroupIdentifiers
        filter.inAppOwnershipType = p.inAppOwnershipType
        filter.revoked = p.revoked
        filter.sort = p.sort
        let page = try await call.services.transactions.history(
            tenant: call.caller.tenant, bundleId: p.bundleId, transactionId: p.transactionId, filter: filter, cursor: p.cursor, limit: p.limit ?? 200)
        return HistoryResult(
            transactions: page.transactions.map(TransactionView.init), environment: page.environment.rawValue, hasMore: page.hasMore, cursor: page.cursor)
    }

    @RPCObject struct AppTransactionResult {
        let bundleId: String
        let environment: String
        let appTransactionId: String
        let originalPurchaseDate: Date?
        let originalPlatform: String?
        /// Apple's receiptCreationDate.
        let signedDate: Date?
        /// The customer the appTransactionId is linked to, if any.
        let customerId: String?
        /// When a parent withdrew consent (RESCIND_CONSENT); the app may no longer serve this customer.
        let consentRescindedAt: Date?
        /// Apple's JWS, as received.
        let signedAppTransactionInfo: String
    }

    static let appTransaction = RPCMethod<RPCCall>(
        "appTransactions.get", tag: "transactions", summary: "A customer's app transaction from Apple, verified and stored.",
        description: """
            Apple's Get App Transaction Info for the customer behind any of their transaction IDs (or appTransactionId), verified and stored, with \
            the customer its appTransactionId is linked to and the time consent was rescinded, if a RESCIND_CONSENT notification said so.
            """, result: "appTransaction", errors: lookupErrors
    ) { (p: GetParams, call) in
        let found = try await call.services.transactions.appTransaction(tenant: call.caller.tenant, bundleId: p.bundleId, transactionId: p.transactionId)
        let customers = try await call.services.accounts.customerIds(tenant: call.caller.tenant, ids: Set([found.customer].compactMap { $0 }))
        return AppTransactionResult(
            bundleId: p.bundleId, environment: found.environment.rawValue, appTransactionId: found.appTransactionId,
            originalPurchaseDate: found.originalPurchaseDate, originalPlatform: found.originalPlatform, signedDate: found.signedDate,
            customerId: found.customer.flatMap { customers[$0] }, consentRescindedAt: found.consentRescindedAt,
            signedAppTransactionInfo: found.signedAppTransaction)
    }

    @RPCParams struct SyncParams {
        @Field(.customerId) let customerId: String
    }

    @RPCObject struct SyncedApp {
        let bundleId: String
        let environment: String
        /// Transactions in Apple's history, verified and stored.
        @Field(.minimum(0)) let transactions: Int
        /// Subscriptions whose status Apple gave.
        @Field(.minimum(0)) let subscriptions: Int
    }

    @RPCObject struct SyncResult {
        let customerId: String
        let apps: [SyncedApp]
        let subscriptions: [SubscriptionMethods.Subscription]
        let purchases: [SubscriptionMethods.Purchase]
    }

    static let sync = RPCMethod<RPCCall>(
        "customers.sync", tag: "transactions", summary: "Rebuilds a customer's purchases from Apple (server-side restore).",
        description: """
            For each app where Storegate knows one of the customer's identifiers, Apple's whole transaction history and every subscription's \
            status are read, verified and stored; transactions nobody owns are linked to this customer (ones linked to another customer stay \
            theirs). Returns the customer's subscriptions and the other purchases that grant access now. Audited.
            """, result: "customerSync", errors: lookupErrors
    ) { (p: SyncParams, call) in
        let sync = try await call.services.transactions.sync(tenant: call.caller.tenant, customerId: p.customerId, actor: call.caller.actor)
        let appIds = sync.apps.map(\.appId) + sync.subscriptions.map(\.subscription.appId) + sync.purchases.map(\.appId)
        let bundles = try await SubscriptionMethods.bundles(call, covering: appIds)
        return SyncResult(
            customerId: sync.customer.customerId,
            apps: sync.apps.map {
                SyncedApp(
                    bundleId: bundles[$0.appId] ?? "", environment: $0.environment.rawValue, transactions: $0.transactions, subscriptions: $0.subscriptions)
            }, subscriptions: sync.subscriptions.map { SubscriptionMethods.Subscription($0, bundles: bundles) },
            purchases: sync.purchases.map { SubscriptionMethods.Purchase($0, bundles: bundles) })
    }

    @RPCParams struct TokensParams {
        /// One app's tokens (default: every app's).
        @Field(.bundleId) let bundleId: String?
        /// At most this many (default 100).
        @Field(.range(1...500)) let limit: Int?
    }

    @RPCObject struct Token {
        let bundleId: String
        let environment: String
        let externalPurchaseId: String
        let tokenCreationDate: Date?
        /// UNREPORTED: Apple has no report of this token yet.
        let subtype: String?
        @Field(.uuid) let notificationUUID: String
        let receivedAt: Date?
    }

    @RPCObject struct TokensResult {
        let tokens: [Token]
    }

    static let externalPurchaseTokens = RPCMethod<RPCCall>(
        "externalPurchaseTokens.list", tag: "transactions", summary: "External purchase tokens Apple announced, newest first.",
        description: """
            From EXTERNAL_PURCHASE_TOKEN notifications, verified. Subtype UNREPORTED means Apple created the token and has no report of it: \
            report it with Apple's External Purchase Server API.
            """, result: "externalPurchaseTokens", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: TokensParams, call) in
        let tokens = try await call.services.transactions.externalPurchaseTokens(tenant: call.caller.tenant, bundleId: p.bundleId, limit: p.limit ?? 100)
        let bundles = try await SubscriptionMethods.bundles(call, covering: tokens.map(\.appId))
        return TokensResult(
            tokens: tokens.map {
                Token(
                    bundleId: bundles[$0.appId] ?? "", environment: $0.environment.rawValue, externalPurchaseId: $0.externalPurchaseId,
                    tokenCreationDate: $0.tokenCreationDate, subtype: $0.subtype?.rawValue, notificationUUID: $0.notificationUUID.uuidString.lowercased(),
                    receivedAt: $0.receivedAt)
            })
    }
}
