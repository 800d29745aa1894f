import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `customers.sync`: a customer's purchases rebuilt from Apple; `customers.*Attributes` and `*Note*`: the
/// tenant's own facts about a customer and support's notes; `customers.delete`: erasure.
enum CustomerMethods {
    static let all = [sync, attributes, setAttributes, notes, addNote, deleteNote, export, delete]

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

    @RPCParams struct CustomerParams {
        @Field(.customerId) let customerId: String
    }

    static let attributes = RPCMethod<RPCCall>(
        "customers.attributes", tag: "customers", summary: "The tenant's attributes of a customer.", result: "customerAttributes",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: CustomerParams, call) in
        try await call.capabilities.customerProfiles.attributes(tenant: call.caller.tenant, customerId: p.customerId)
    }

    @RPCParams struct SetAttributesParams {
        @Field(.customerId) let customerId: String
        /// Attributes to set: keys of 1 to 64 characters (A-Z, a-z, 0-9, `_ . : -`), values of 1 to 500 characters.
        let set: [String: String]?
        /// Keys of attributes to remove (a key not set is no error).
        let remove: [String]?
    }

    static let setAttributes = RPCMethod<RPCCall>(
        "customers.setAttributes", tag: "customers", summary: "Sets and removes attributes of a customer (at most 50 per customer).",
        description: """
            The customer must exist (`accounts.ensure`). All of it or nothing: a bad key or value, a key both set and removed, or more \
            than 50 attributes in all refuses the call naming the field. Returns the attributes as they now stand. Audited by keys, not values.
            """,
        result: "customerAttributes", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: SetAttributesParams, call) in
        try await call.capabilities.customerProfiles.setAttributes(
            tenant: call.caller.tenant, customerId: p.customerId, set: p.set ?? [:], remove: p.remove ?? [], actor: call.caller.actor)
    }

    @RPCParams struct NotesParams {
        @Field(.customerId) let customerId: String
        /// The `next` of the page before: notes older than this one.
        let before: String?
        @Field(.page(CustomerProfileService.notePage)) let limit: Int?
    }

    static let notes = RPCMethod<RPCCall>(
        "customers.notes", tag: "customers", summary: "Support's notes about a customer, newest first.", result: "customerNotes",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: NotesParams, call) in
        try await call.capabilities.customerProfiles.notes(
            tenant: call.caller.tenant, customerId: p.customerId, before: p.before, limit: p.limit ?? CustomerProfileService.notePage.standard)
    }

    @RPCParams struct AddNoteParams {
        @Field(.customerId) let customerId: String
        /// 1 to 4,000 characters; lines are kept.
        @Field(.maxLength(CustomerProfileService.noteLength)) let text: String
    }

    static let addNote = RPCMethod<RPCCall>(
        "customers.addNote", tag: "customers", summary: "Adds a support note about a customer, written by the caller.",
        description: "The note's author is the caller (`apikey:` and the key's prefix; the console writes `console:` and the person's email). Audited.",
        result: "customerNote", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: AddNoteParams, call) in
        try await call.capabilities.customerProfiles.addNote(tenant: call.caller.tenant, customerId: p.customerId, text: p.text, actor: call.caller.actor)
    }

    @RPCParams struct DeleteNoteParams {
        @Field(.customerId) let customerId: String
        let noteId: String
    }

    static let deleteNote = RPCMethod<RPCCall>(
        "customers.deleteNote", tag: "customers", summary: "Deletes one of a customer's notes. Audited.", result: "deleted",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: DeleteNoteParams, call) in
        try await call.capabilities.customerProfiles.deleteNote(
            tenant: call.caller.tenant, customerId: p.customerId, noteId: p.noteId, actor: call.caller.actor)
        return Deleted(deleted: true)
    }

    static let delete = RPCMethod<RPCCall>(
        "customers.delete", tag: "customers", summary: "Erases a customer (GDPR Art. 17, CCPA): their personal data deleted or anonymised.",
        description: """
            Deletes the customer, their links, grants, attributes and notes; keeps their purchases, subscriptions, refund requests and \
            outcomes, consumption answers and events by Apple's identifiers, with no customer, no appAccountToken and no signed copy (the \
            decoded facts still answer Apple's refund questions); drops the signed payloads of the notifications about their purchases; \
            renames them in audit entries to the erasure's id. Evented as `customer.deleted` (the erasure's id, not the customer) and \
            audited. Idempotent: a customer id Storegate does not hold answers `deleted: false`. A later notification about one of their \
            purchases arrives unlinked, as for a new customer. What is kept and why: docs/API.md "Erasure".
            """,
        result: "customerErasure", errors: [ErrorCode.invalidParams]
    ) { (p: CustomerParams, call) in
        try await call.capabilities.customerErasure.delete(tenant: call.caller.tenant, customerId: p.customerId, actor: call.caller.actor)
    }
}
