import Hummingbird
import HummingbirdAuth
import Storegate

/// Erasing a customer from their page (admins only): the customer id typed again to confirm, then what
/// `customers.delete` did, on a page of its own (the customer's is gone).
extension ConsoleRoutes {
    struct EraseForm: CustomerPageForm {
        @Trimmed var customerId: String?
        @Trimmed var confirm: String?
    }

    @Sendable func erase(_ request: Request, context: Context) async throws -> Response {
        let session = try context.requireIdentity()
        let form = try await request.decode(as: EraseForm.self, context: context)
        let customerId = form.customerId ?? ""
        guard session.user.role.mayErase else {
            return pages.message("Not allowed", "Only admins erase a customer.", session: session, status: .forbidden)
        }
        guard form.confirm == customerId else {
            throw StoregateError.invalid(field: "confirm", reason: "must be the customer id, \u{201C}\(customerId)\u{201D}, typed again")
        }
        let done = try await capabilities.customerErasure.delete(tenant: session.tenant, customerId: customerId, actor: session.user.actor)
        guard done.deleted, let erasureId = done.erasureId else {
            return pages.message(
                "Nothing erased", "No customer \u{201C}\(customerId)\u{201D} is held in \(session.tenant.name).", session: session, status: .ok)
        }
        return pages.message(
            "Customer erased",
            "\u{201C}\(customerId)\u{201D} was erased as \(erasureId): \(done.links) links, \(done.grants) grants, \(done.notes) notes and "
                + "\(done.attributes) attributes deleted; \(done.transactions) purchases, \(done.subscriptions) subscriptions, \(done.refunds) refund "
                + "records and \(done.events) events kept without them; \(done.notifications) signed notifications dropped. The audit log names "
                + "them \(erasureId) from now on.",
            session: session, status: .ok)
    }
}
