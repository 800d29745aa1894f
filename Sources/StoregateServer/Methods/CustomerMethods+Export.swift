import Foundation
import JSONRPC
import Storegate

/// `customers.export`: everything Storegate holds about one customer (GDPR Art. 15).
extension CustomerMethods {
    @RPCParams struct ExportParams {
        @Field(.customerId) let customerId: String
    }

    static let export = RPCMethod<RPCCall>(
        "customers.export", tag: "customers", summary: "Everything Storegate holds about a customer, as one JSON document (GDPR Art. 15).",
        description: """
            The customer, their account links, every transaction linked to them (Apple's decoded fields, not the signed copies), app \
            transactions, subscriptions with renewal info, renewal extensions, refund decisions, consumption requests and the answers \
            sent, consumption facts, grants, their events and the notifications and webhook deliveries of them, attributes, notes and \
            the tenant's audit entries about them: read in one snapshot. Events, notifications, webhook deliveries and audit entries \
            are cut at 10,000 each, named in `truncated` (read on with `events.list` and `audit.list`). Read-only; audited as \
            `customer.export`. Private keys, API keys and webhook secrets are never part of it.
            """,
        result: "customerExport", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: ExportParams, call) in
        try await call.capabilities.customerExports.export(tenant: call.caller.tenant, customerId: p.customerId, actor: call.caller.actor)
    }
}
