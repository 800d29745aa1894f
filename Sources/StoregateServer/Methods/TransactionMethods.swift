import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `transactions.*`: Apple's transaction lookups, each answer verified and stored.
enum TransactionMethods {
    static let all = [get, history, finish]

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
        let found = try await call.capabilities.transactions.get(tenant: call.caller.tenant, bundleId: p.bundleId, transactionId: p.transactionId)
        return GetResult(transaction: TransactionView(found.transaction), customerId: found.customerId)
    }

    @RPCObject struct FinishResult {
        let transactionId: String
        /// Where Apple knew the transaction: Production or Sandbox.
        @Field(.appStoreEnvironment) let environment: String
    }

    static let finish = RPCMethod<RPCCall>(
        "transactions.finish", tag: "transactions", summary: "Tells Apple the transaction is finished (its content delivered).",
        description: """
            Apple's Finish Transaction (App Store Server API 1.20), in the environment Storegate knows the transaction from (else Production, \
            then Sandbox); audited. Call it once your server has delivered what a transaction bought, when the app cannot (content unlocked \
            by your server, a purchase the app never finished): it is the server's counterpart of StoreKit's `finish()`. Calling it again \
            is harmless.
            """, result: "finished", errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError, ErrorCode.keyUnavailable]
    ) { (p: GetParams, call) in
        let environment = try await call.capabilities.transactions.finish(
            tenant: call.caller.tenant, bundleId: p.bundleId, transactionId: p.transactionId, actor: call.caller.actor)
        return FinishResult(transactionId: p.transactionId, environment: environment.rawValue)
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
        /// Stop after at least this many transactions; Apple's pages are never split.
        @Field(.page(TransactionService.historyPage)) let limit: Int?
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
        let page = try await call.capabilities.transactions.history(
            tenant: call.caller.tenant, bundleId: p.bundleId, transactionId: p.transactionId, filter: filter, cursor: p.cursor, limit: p.limit)
        return HistoryResult(
            transactions: page.transactions.map(TransactionView.init), environment: page.environment.rawValue, hasMore: page.hasMore, cursor: page.cursor)
    }
}
