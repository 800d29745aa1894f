import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `transactions.*`, `appTransactions.get`, `customers.sync` and `externalPurchaseTokens.list`: Apple's
/// transaction lookups, each answer verified and stored.
enum TransactionMethods {
    static let all = [get, history, appTransaction, sync, externalPurchaseTokens]

    static let bundleId = RPCParam("bundleId", "The app's bundle ID, within the caller's tenant.", schema: AppView.bundleIdSchema)
    static let lookupErrors = [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError, ErrorCode.signedDataInvalid]

    struct GetParams: RPCParams {
        let bundleId: String
        let transactionId: String

        static let parameters: [RPCParam] = [
            TransactionMethods.bundleId, RPCParam("transactionId", "The transaction's ID.", schema: SubscriptionMethods.transactionIdSchema),
        ]
    }

    struct GetResult: RPCResult {
        let transaction: TransactionView
        let customerId: String?

        static let schema: JSONValue = Schema.object(
            [("transaction", TransactionView.schema), ("customerId", Schema.string("The customer Storegate links the transaction to, if any."))],
            required: ["transaction"])
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

    struct HistoryParams: RPCParams {
        let bundleId: String
        let transactionId: String
        let startDate: Date?
        let endDate: Date?
        let productIds: [String]?
        let productTypes: [ProductType]?
        let subscriptionGroupIdentifiers: [String]?
        let inAppOwnershipType: InAppOwnershipType?
        let revoked: Bool?
        let sort: Order?
        let cursor: String?
        let limit: Int?

        static let parameters: [RPCParam] = [
            TransactionMethods.bundleId,
            RPCParam("transactionId", "Any transaction ID of the customer.", schema: SubscriptionMethods.transactionIdSchema),
            RPCParam("startDate", "Only transactions purchased at or after this time (ISO 8601).", schema: Schema.string(format: "date-time"), required: false),
            RPCParam("endDate", "Only transactions purchased before this time (ISO 8601).", schema: Schema.string(format: "date-time"), required: false),
            RPCParam("productIds", "Only these products.", schema: Schema.array(of: Schema.string(maxLength: 255)), required: false),
            RPCParam(
                "productTypes", "Only these product types.",
                schema: Schema.array(of: Schema.enumeration(ProductType.known.map(\.rawValue))), required: false),
            RPCParam(
                "subscriptionGroupIdentifiers", "Only these subscription groups.", schema: Schema.array(of: Schema.string(maxLength: 255)), required: false),
            RPCParam("inAppOwnershipType", "PURCHASED or FAMILY_SHARED.", schema: Schema.enumeration(["PURCHASED", "FAMILY_SHARED"]), required: false),
            RPCParam("revoked", "Only revoked (true) or only not revoked (false) transactions.", schema: ["type": "boolean"], required: false),
            RPCParam(
                "sort", "By when Apple last modified each transaction: ASCENDING (default) or DESCENDING.",
                schema: Schema.enumeration(["ASCENDING", "DESCENDING"]), required: false),
            RPCParam("cursor", "The `cursor` of the previous call, to continue.", schema: Schema.string(maxLength: 600), required: false),
            RPCParam(
                "limit", "Stop after at least this many transactions (1 to 1000, default 200); Apple's pages are never split.",
                schema: Schema.integer(minimum: 1), required: false),
        ]
    }

    struct HistoryResult: RPCResult {
        let transactions: [TransactionView]
        let environment: String
        let hasMore: Bool
        let cursor: String?

        static let schema: JSONValue = Schema.object(
            [
                ("transactions", Schema.array(of: TransactionView.schema)), ("environment", Schema.string()), ("hasMore", ["type": "boolean"]),
                ("cursor", Schema.string("Pass as `cursor` to continue; present while hasMore.")),
            ], required: ["transactions", "environment", "hasMore"])
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

    struct AppTransactionResult: RPCResult {
        let bundleId: String
        let environment: String
        let appTransactionId: String
        let originalPurchaseDate: Date?
        let originalPlatform: String?
        let signedDate: Date?
        let customerId: String?
        let consentRescindedAt: Date?
        let signedAppTransactionInfo: String

        static let schema: JSONValue = Schema.object(
            [
                ("bundleId", Schema.string()), ("environment", Schema.string()), ("appTransactionId", Schema.string()),
                ("originalPurchaseDate", Schema.string(format: "date-time")), ("originalPlatform", Schema.string()),
                ("signedDate", Schema.string("Apple's receiptCreationDate.", format: "date-time")),
                ("customerId", Schema.string("The customer the appTransactionId is linked to, if any.")),
                (
                    "consentRescindedAt",
                    Schema.string("When a parent withdrew consent (RESCIND_CONSENT); the app may no longer serve this customer.", format: "date-time")
                ),
                ("signedAppTransactionInfo", Schema.string("Apple's JWS, as received.")),
            ], required: ["bundleId", "environment", "appTransactionId", "signedAppTransactionInfo"])
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

    struct SyncParams: RPCParams {
        let customerId: String

        static let parameters: [RPCParam] = [AccountMethods.customerId]
    }

    struct SyncedApp: Encodable, Sendable {
        let bundleId: String
        let environment: String
        let transactions: Int
        let subscriptions: Int
    }

    struct SyncResult: RPCResult {
        let customerId: String
        let apps: [SyncedApp]
        let subscriptions: [SubscriptionMethods.Subscription]
        let purchases: [SubscriptionMethods.Purchase]

        static let schema: JSONValue = Schema.object(
            [
                ("customerId", Schema.string()),
                (
                    "apps",
                    Schema.array(
                        of: Schema.object(
                            [
                                ("bundleId", Schema.string()), ("environment", Schema.string()),
                                ("transactions", Schema.integer("Transactions in Apple's history, verified and stored.", minimum: 0)),
                                ("subscriptions", Schema.integer("Subscriptions whose status Apple gave.", minimum: 0)),
                            ], required: ["bundleId", "environment", "transactions", "subscriptions"]))
                ),
                ("subscriptions", Schema.array(of: SubscriptionMethods.subscriptionSchema)),
                ("purchases", Schema.array(of: SubscriptionMethods.purchaseSchema)),
            ], required: ["customerId", "apps", "subscriptions", "purchases"])
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

    struct TokensParams: RPCParams {
        let bundleId: String?
        let limit: Int?

        static let parameters: [RPCParam] = [
            RPCParam("bundleId", "One app's tokens (default: every app's).", schema: AppView.bundleIdSchema, required: false),
            RPCParam("limit", "1 to 500, default 100.", schema: Schema.integer(minimum: 1), required: false),
        ]
    }

    struct Token: Encodable, Sendable {
        let bundleId: String
        let environment: String
        let externalPurchaseId: String
        let tokenCreationDate: Date?
        let subtype: String?
        let notificationUUID: String
        let receivedAt: Date?
    }

    struct TokensResult: RPCResult {
        let tokens: [Token]

        static let schema: JSONValue = Schema.object(
            [
                (
                    "tokens",
                    Schema.array(
                        of: Schema.object(
                            [
                                ("bundleId", Schema.string()), ("environment", Schema.string()), ("externalPurchaseId", Schema.string()),
                                ("tokenCreationDate", Schema.string(format: "date-time")),
                                ("subtype", Schema.string("UNREPORTED: Apple has no report of this token yet.")),
                                ("notificationUUID", Schema.string(format: "uuid")), ("receivedAt", Schema.string(format: "date-time")),
                            ], required: ["bundleId", "environment", "externalPurchaseId", "notificationUUID"]))
                )
            ], required: ["tokens"])
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
