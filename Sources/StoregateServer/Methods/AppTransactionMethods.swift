import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `appTransactions.get`: a customer's app transaction from Apple, verified and stored.
enum AppTransactionMethods {
    static let all = [get]

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

    static let get = RPCMethod<RPCCall>(
        "appTransactions.get", tag: "transactions", summary: "A customer's app transaction from Apple, verified and stored.",
        description: """
            Apple's Get App Transaction Info for the customer behind any of their transaction IDs (or appTransactionId), verified and stored, with \
            the customer its appTransactionId is linked to and the time consent was rescinded, if a RESCIND_CONSENT notification said so.
            """, result: "appTransaction", errors: TransactionMethods.lookupErrors
    ) { (p: TransactionMethods.GetParams, call) in
        let found = try await call.services.transactions.appTransaction(tenant: call.caller.tenant, bundleId: p.bundleId, transactionId: p.transactionId)
        let customers = try await call.services.accounts.customerIds(tenant: call.caller.tenant, ids: Set([found.customer].compactMap { $0 }))
        return AppTransactionResult(
            bundleId: p.bundleId, environment: found.environment.rawValue, appTransactionId: found.appTransactionId,
            originalPurchaseDate: found.originalPurchaseDate, originalPlatform: found.originalPlatform, signedDate: found.signedDate,
            customerId: found.customer.flatMap { customers[$0] }, consentRescindedAt: found.consentRescindedAt,
            signedAppTransactionInfo: found.signedAppTransaction)
    }
}
