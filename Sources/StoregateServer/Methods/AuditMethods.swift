import Foundation
import JSONRPC
import Storegate

/// `audit.list`: the tenant's audit log, newest first.
enum AuditMethods {
    static let all = [list]

    @RPCParams struct ListParams {
        @Field(.auditActor) let actor: String?
        @Field(.auditAction) let action: String?
        /// Only entries about this customer (the tenant's own identifier, as the entry's detail names it).
        @Field(.customerId) let customerId: String?
        /// From this instant (included).
        let from: Date?
        /// To this instant (excluded); later than `from`.
        let to: Date?
        /// The `next` of the previous page: entries older than this one. Absent for the newest.
        @Field(.minimum(1)) let before: Int64?
        /// At most this many.
        @Field(.page(AuditService.page)) let limit: Int?
    }

    @RPCObject struct ListResult {
        let entries: [AuditEntryView]
        /// Pass as `before` to read older entries; absent when there are none.
        @Field(.minimum(1)) let next: Int64?
    }

    static let list = RPCMethod<RPCCall>(
        "audit.list", tag: "audit", summary: "The tenant's audit log, newest first.",
        description: """
            Who did what and when, for the caller's tenant only: API keys (apikey:<prefix>), console users (console:<email>), the CLI \
            (cli:<user>) and Apple's retention requests (apple:retention). Every offer signing, call to Apple with the tenant's key, grant, \
            change of apps, keys, webhooks, catalog and policy is there. Filter by actor, action (exact, or a prefix ending with a dot), \
            customer and time; read older pages by passing `next` as `before`.
            """,
        result: "auditPage", errors: [ErrorCode.invalidParams]
    ) { (params: ListParams, call) in
        let filter = AuditFilter(actor: params.actor, action: params.action, customerId: params.customerId, from: params.from, to: params.to)
        let page = try await call.capabilities.audit.list(tenant: call.caller.tenant, filter: filter, before: params.before, limit: params.limit)
        return ListResult(entries: try page.entries.map(AuditEntryView.init), next: page.next)
    }
}

/// An audit entry as `audit.list` returns it.
@RPCObject(title: "AuditEntry") struct AuditEntryView {
    /// The entry's place in the log: later entries have larger ids.
    @Field(.minimum(1)) let id: Int64
    /// When it was written (its transaction's time).
    let at: Date
    /// Who did it: apikey:<prefix>, console:<email>, cli:<user>, apple:retention.
    let actor: String
    /// What was done, such as offer.sign, entitlement.grant, apple.extendRenewalDate, webhook.create.
    let action: String
    /// The tenant's id of the customer it concerned, when it concerned one.
    let customerId: String?
    /// What it was done to and with, by action: identifiers (bundleId, transactionId, productId, grantId, endpoint, …), never a secret;
    /// `count` when one entry stands for several identical offer signings committed together.
    @Field(.object) let detail: JSONValue

    init(_ entry: AuditEntry) throws {
        (id, at, actor, action, customerId) = (entry.id, entry.at, entry.actor, entry.action, entry.customerId)
        detail = try JSONParser.parse(Array(entry.detail.utf8))
    }
}
