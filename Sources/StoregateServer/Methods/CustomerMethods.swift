import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `customers.sync`: a customer's purchases rebuilt from Apple.
enum CustomerMethods {
    static let all = [sync]

    @RPCParams struct SyncParams {
        @Field(.customerId) let customerId: String
    }

    static let sync = RPCMethod<RPCCall>(
        "customers.sync", tag: "transactions", summary: "Rebuilds a customer's purchases from Apple (server-side restore).",
        description: """
            For each app where Storegate knows one of the customer's identifiers, Apple's whole transaction history and every subscription's \
            status are read, verified and stored; transactions nobody owns are linked to this customer (ones linked to another customer stay \
            theirs). Returns the customer's subscriptions and the other purchases that grant access now. Audited.
            """, result: "customerSync", errors: TransactionMethods.lookupErrors
    ) { (p: SyncParams, call) in
        try await call.capabilities.transactions.sync(tenant: call.caller.tenant, customerId: p.customerId, actor: call.caller.actor)
    }
}
