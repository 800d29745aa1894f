import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `externalPurchaseTokens.list`: the external purchase tokens Apple announced.
enum ExternalPurchaseTokenMethods {
    static let all = [list]

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

    static let list = RPCMethod<RPCCall>(
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
