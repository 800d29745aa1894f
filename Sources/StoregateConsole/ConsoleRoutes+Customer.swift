import AppStoreServer
import Foundation
import Hummingbird
import HummingbirdAuth
import Storegate

/// A customer's page: subscriptions, purchases, refunds with what to revoke, consumption requests
/// waiting, grants and the timeline, with the forms of what the person's role may do.
extension ConsoleRoutes {
    static var timelinePage: Int { 50 }

    struct CustomerQuery: Decodable {
        @Trimmed var id: String?
        /// What an action did (`Done`), said at the top of the page.
        @Trimmed var done: String?
        /// Where the timeline starts: `before` or `after` a sequence number (from the page's links), else the
        /// newest events.
        @Trimmed var before: String?
        @Trimmed var after: String?

        var position: EventService.TimelinePosition {
            if let before = before.flatMap({ Int64($0) }) { return .before(before) }
            if let after = after.flatMap({ Int64($0) }) { return .after(after) }
            return .latest
        }
    }

    @Sendable func customerPage(_ request: Request, context: Context) async throws -> Response {
        let query = try request.uri.decodeQuery(as: CustomerQuery.self, context: context)
        return try await customer(query.id ?? "", context.requireIdentity(), flash: query.done.flatMap(Done.init)?.sentence, timeline: query.position)
    }

    func customer(
        _ customerId: String, _ session: ConsoleSession, flash: String? = nil, error: FailureMessage? = nil, status: HTTPResponse.Status = .ok,
        timeline position: EventService.TimelinePosition = .latest
    ) async throws -> Response {
        let tenant = session.tenant
        let customer: LinkedCustomer
        do {
            customer = try await capabilities.accounts.get(tenant: tenant, customerId: customerId)
        } catch StoregateError.notFound, StoregateError.invalid {
            return pages.message("Not found", "No customer \u{201C}\(customerId)\u{201D} in \(tenant.name).", session: session, status: .notFound)
        }
        async let subscriptions = capabilities.subscriptions.status(tenant: tenant, customerId: customerId, bundleId: nil, transactionId: nil, refresh: false)
        async let entitlements = capabilities.subscriptions.entitlements(tenant: tenant, customerId: customerId)
        async let grants = capabilities.subscriptions.grants(tenant: tenant, customerId: customerId)
        async let refunds = capabilities.refunds.outcomes(tenant: tenant, bundleId: nil, transactionId: nil, customerId: customerId, limit: 50)
        async let requests = capabilities.refunds.pendingRequests(tenant: tenant, customerId: customerId)
        async let timeline = capabilities.events.timeline(tenant: tenant, customerId: customerId, at: position, limit: Self.timelinePage)
        async let apps = capabilities.apps.list(tenant: tenant)
        async let attributes = capabilities.customerProfiles.attributes(tenant: tenant, customerId: customerId)
        async let notes = capabilities.customerProfiles.notes(tenant: tenant, customerId: customerId, before: nil, limit: 50)
        let now = Date()
        let refundOutcomes = try await refunds

        var model: [String: Any] = [
            "customerId": customer.customerId, "appAccountToken": customer.appAccountToken,
            "createdAt": shown(customer.createdAt), "csrf": session.csrfToken, "mayAct": session.user.role.mayAct,
            "mayErase": session.user.role.mayErase,
            "subscriptions": try await subscriptions.map { s in
                let standing = SubscriptionStanding(s, refunds: refundOutcomes)
                var card: [String: Any] = [
                    "bundleId": s.bundleId, "productId": s.productId, "environment": s.environment, "status": s.status.rawValue,
                    "standing": standing.sentence, "expires": shown(s.expiresDate), "originalTransactionId": s.originalTransactionId,
                    "extendable": standing.extendable,
                ]
                if let renewal = standing.renewal { card["renewal"] = renewal }
                return card
            },
            "purchases": try await entitlements.purchases.map { p in
                [
                    "productId": p.productId, "type": p.type, "quantity": String(p.quantity), "purchased": shown(p.purchaseDate),
                    "transactionId": p.transactionId,
                ]
            },
            "refunds": refundOutcomes.map { o in
                [
                    "outcome": o.outcome, "productId": o.productId, "transactionId": o.transactionId, "when": shown(o.revocationDate ?? o.signedDate),
                    "revoke": o.revoke.summary, "source": o.source == RefundOutcome.Source.refundHistory.rawValue ? "refund history" : "notification",
                ]
            },
            "requests": try await requests.map { r in
                [
                    "id": r.id, "bundleId": r.bundleId, "transactionId": r.transactionId, "productType": r.productType, "reason": r.reason ?? "—",
                    "deadline": shown(r.deadline), "deliveryStatuses": DeliveryStatus.known.map(\.rawValue),
                    "refundPreferences": RefundPreference.known.map(\.rawValue),
                ] as [String: Any]
            },
            "grants": try await grants.map { g in
                let state = g.revokedDate != nil ? "revoked" : g.expiresDate <= now ? "expired" : g.startsDate > now ? "scheduled" : "active"
                return [
                    "grantId": g.grantId, "target": g.entitlement ?? "\(g.productId ?? "") (\(g.bundleId ?? ""))", "starts": shown(g.startsDate),
                    "expires": shown(g.expiresDate), "reason": g.reason, "grantedBy": g.grantedBy, "state": state,
                    "revocable": session.user.role.mayAct && (state == "active" || state == "scheduled"),
                ] as [String: Any]
            },
            "timeline": try await timeline.events.map { e in
                [
                    "when": shown(e.createdAt), "sentence": TimelineSentences.sentence(e.type, json: e.data), "type": e.type.rawValue,
                    "eventId": e.displayId, "identifiers": TimelineSentences.identifiers(json: e.data).map { ["name": $0.name, "value": $0.value] },
                ] as [String: Any]
            },
            "bundleIds": try await apps.map(\.app.bundleId),
            "notes": try await notes.notes.map { n in ["when": shown(n.createdAt), "author": n.author, "text": n.text, "noteId": n.noteId] },
            "attributes": try await attributes.attributes.sorted { $0.key < $1.key }.map { ["key": $0.key, "value": $0.value] },
        ]
        let page = "/console/customer?id=\(Self.query(customer.customerId))"
        model["exportURL"] = Self.exportURL(customer.customerId)
        if let later = try await timeline.later { model["timelineLater"] = page + "&after=\(later)#timeline" }
        if let earlier = try await timeline.earlier { model["timelineEarlier"] = page + "&before=\(earlier)#timeline" }
        var frame = Pages.Frame(title: "Customer \(customer.customerId)", session: session)
        frame.flash = flash
        frame.error = error?.text
        frame.errorDetail = error?.detail
        return pages.page("customer", model, frame: frame, status: status)
    }

    // MARK: Actions

    /// The actions on a customer's page, posted to `/console/customer/…` behind `CustomerActionMiddleware`
    /// (a role that may act; a refusal shown on the customer's page). Each answers with the customer's page
    /// again, saying what it did.
    func addActions(to actions: RouterGroup<Context>) {
        actions
            .post("extend", use: action(.extended, extend))
            .post("grant", use: action(.granted, grant))
            .post("revoke-grant", use: action(.revoked, revokeGrant))
            .post("sync", use: action(.synced, sync))
            .post("consumption", use: action(.answered, answerConsumption))
            .post("add-note", use: action(.noted, addNote))
            .post("delete-note", use: action(.noteDeleted, deleteNote))
            .post("attributes", use: action(.attributesChanged, changeAttributes))
            .post("erase", use: erase)
    }

    /// What an action did: `done=` in the customer page's URL, said at its top.
    enum Done: String {
        case extended, granted, revoked, synced, answered, noted, noteDeleted, attributesChanged

        var sentence: String {
            switch self {
            case .extended: "The renewal date was extended."
            case .granted: "The grant was made."
            case .revoked: "The grant was revoked."
            case .synced: "The customer's purchases were read again from Apple."
            case .answered: "The consumption information was sent to Apple."
            case .noted: "The note was added."
            case .noteDeleted: "The note was deleted."
            case .attributesChanged: "The attributes were changed."
            }
        }
    }

    /// A customer action as a route: its form decoded, `perform` done as the person signed in, and the
    /// customer's page again, saying `done`.
    func action<Form: CustomerPageForm>(
        _ done: Done, _ perform: @escaping @Sendable (Form, ConsoleSession) async throws -> Void
    ) -> @Sendable (Request, Context) async throws -> Response {
        { request, context in
            let session = try context.requireIdentity()
            let form = try await request.decode(as: Form.self, context: context)
            try await perform(form, session)
            return Pages.redirect("/console/customer?id=\(Self.query(form.customerId ?? ""))&done=\(done.rawValue)")
        }
    }

    struct ExtendForm: CustomerPageForm {
        @Trimmed var customerId: String?
        @Trimmed var bundleId: String?
        @Trimmed var originalTransactionId: String?
        var days: WholeNumber
        var reasonCode: WholeNumber
    }

    @Sendable func extend(_ form: ExtendForm, _ session: ConsoleSession) async throws {
        _ = try await capabilities.subscriptions.extendRenewalDate(
            tenant: session.tenant, bundleId: form.bundleId ?? "", originalTransactionId: form.originalTransactionId ?? "",
            extendByDays: try form.days.value, extendReasonCode: try form.reasonCode.value, requestIdentifier: nil, actor: session.user.actor)
    }

    struct GrantForm: CustomerPageForm {
        @Trimmed var customerId: String?
        @Trimmed var bundleId: String?
        @Trimmed var productId: String?
        @Trimmed var entitlement: String?
        var days: WholeNumber
        @Trimmed var reason: String?
    }

    @Sendable func grant(_ form: GrantForm, _ session: ConsoleSession) async throws {
        _ = try await capabilities.subscriptions.grant(
            tenant: session.tenant, customerId: form.customerId ?? "", bundleId: form.bundleId, productId: form.productId,
            entitlement: form.entitlement, days: try form.days.value, expiresDate: nil, reason: form.reason ?? "", actor: session.user.actor)
    }

    struct RevokeGrantForm: CustomerPageForm {
        @Trimmed var customerId: String?
        @Trimmed var grantId: String?
    }

    @Sendable func revokeGrant(_ form: RevokeGrantForm, _ session: ConsoleSession) async throws {
        _ = try await capabilities.subscriptions.revokeGrant(
            tenant: session.tenant, customerId: form.customerId ?? "", grantId: form.grantId ?? "", reason: "revoked in the console",
            actor: session.user.actor)
    }

    struct SyncForm: CustomerPageForm {
        @Trimmed var customerId: String?
    }

    @Sendable func sync(_ form: SyncForm, _ session: ConsoleSession) async throws {
        _ = try await capabilities.transactions.sync(tenant: session.tenant, customerId: form.customerId ?? "", actor: session.user.actor)
    }

    struct ConsumptionForm: CustomerPageForm {
        @Trimmed var customerId: String?
        @Trimmed var bundleId: String?
        @Trimmed var transactionId: String?
        /// Checkboxes: `true` when ticked, left out otherwise.
        @Trimmed var customerConsented: String?
        @Trimmed var sampleContentProvided: String?
        @Trimmed var deliveryStatus: String?
        var consumedPercent: WholeNumber
        @Trimmed var refundPreference: String?
    }

    @Sendable func answerConsumption(_ form: ConsumptionForm, _ session: ConsoleSession) async throws {
        let percent = try form.consumedPercent.valueIfGiven
        if let percent, !(0...100).contains(percent) { throw StoregateError.invalid(field: "consumedPercent", reason: "must be 0 to 100") }
        let facts = ConsumptionFacts(
            customerConsented: form.customerConsented == "true", deliveryStatus: DeliveryStatus(rawValue: form.deliveryStatus ?? ""),
            sampleContentProvided: form.sampleContentProvided == "true", consumptionPercentage: percent.map { Int32($0 * 1000) },
            refundPreference: form.refundPreference.map(RefundPreference.init(rawValue:)))
        _ = try await capabilities.refunds.reportConsumption(
            tenant: session.tenant, bundleId: form.bundleId ?? "", transactionId: form.transactionId ?? "", facts: facts, actor: session.user.actor)
    }
}

extension ConsoleRoutes {
    struct NoteForm: CustomerPageForm {
        @Trimmed var customerId: String?
        /// Not trimmed by the form: the service keeps its lines.
        var text: String?
    }

    @Sendable func addNote(_ form: NoteForm, _ session: ConsoleSession) async throws {
        _ = try await capabilities.customerProfiles.addNote(
            tenant: session.tenant, customerId: form.customerId ?? "", text: form.text ?? "", actor: session.user.actor)
    }

    struct DeleteNoteForm: CustomerPageForm {
        @Trimmed var customerId: String?
        @Trimmed var noteId: String?
    }

    @Sendable func deleteNote(_ form: DeleteNoteForm, _ session: ConsoleSession) async throws {
        try await capabilities.customerProfiles.deleteNote(
            tenant: session.tenant, customerId: form.customerId ?? "", noteId: form.noteId ?? "", actor: session.user.actor)
    }

    /// Sets one attribute (`key` and `value`) or removes one (`remove`).
    struct AttributeForm: CustomerPageForm {
        @Trimmed var customerId: String?
        @Trimmed var key: String?
        @Trimmed var value: String?
        @Trimmed var remove: String?
    }

    @Sendable func changeAttributes(_ form: AttributeForm, _ session: ConsoleSession) async throws {
        var set: [String: String] = [:]
        if let key = form.key {
            guard let value = form.value else { throw StoregateError.invalid(field: "value", reason: "is required") }
            set[key] = value
        }
        _ = try await capabilities.customerProfiles.setAttributes(
            tenant: session.tenant, customerId: form.customerId ?? "", set: set, remove: form.remove.map { [$0] } ?? [], actor: session.user.actor)
    }
}

/// A form of a customer's page: it names the customer the page is about.
protocol CustomerPageForm: Decodable, SendableMetatype {
    var customerId: String? { get }
}
