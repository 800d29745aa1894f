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
        /// At most this many.
        @Field(.page(TransactionService.externalPurchaseTokensPage)) let limit: Int?
    }

    @RPCObject struct TokensResult {
        let tokens: [ExternalPurchaseTokenItem]
    }

    static let list = RPCMethod<RPCCall>(
        "externalPurchaseTokens.list", tag: "transactions", summary: "External purchase tokens Apple announced, newest first.",
        description: """
            From EXTERNAL_PURCHASE_TOKEN notifications, verified. Subtype UNREPORTED means Apple created the token and has no report of it: \
            report it with Apple's External Purchase Server API.
            """, result: "externalPurchaseTokens", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: TokensParams, call) in
        TokensResult(
            tokens: try await call.capabilities.transactions.externalPurchaseTokens(tenant: call.caller.tenant, bundleId: p.bundleId, limit: p.limit))
    }
}
