import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `appTransactions.get`: a customer's app transaction from Apple, verified and stored.
enum AppTransactionMethods {
    static let all = [get]

    static let get = RPCMethod<RPCCall>(
        "appTransactions.get", tag: "transactions", summary: "A customer's app transaction from Apple, verified and stored.",
        description: """
            Apple's Get App Transaction Info for the customer behind any of their transaction IDs (or appTransactionId), verified and stored, with \
            the customer its appTransactionId is linked to and the time consent was rescinded, if a RESCIND_CONSENT notification said so.
            """, result: "appTransaction", errors: TransactionMethods.lookupErrors
    ) { (p: TransactionMethods.GetParams, call) in
        try await call.capabilities.transactions.appTransaction(tenant: call.caller.tenant, bundleId: p.bundleId, transactionId: p.transactionId)
    }
}
