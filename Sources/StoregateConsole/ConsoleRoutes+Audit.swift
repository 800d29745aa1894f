import Foundation
import Hummingbird
import HummingbirdAuth
import Storegate

/// The tenant's audit log for its admins: who did what, to whom and when, newest first, filtered by
/// person or key, action, customer and days, a page at a time.
extension ConsoleRoutes {
    /// The audit page's filter form, as it sends it (all optional), and the page to start before.
    struct AuditQuery: Decodable {
        @Trimmed var actor: String?
        @Trimmed var action: String?
        @Trimmed var customer: String?
        /// The first day shown, YYYY-MM-DD (UTC).
        @Trimmed var from: String?
        /// The last day shown, YYYY-MM-DD (UTC), included.
        @Trimmed var to: String?
        @Trimmed var before: String?

        /// The filter asked for: the days as instants, `to`'s whole day included; refused naming the field.
        func filter() throws(StoregateError) -> AuditFilter {
            func day(_ text: String?, _ field: String) throws(StoregateError) -> Date? {
                guard let text else { return nil }
                guard let date = try? Date(text + "T00:00:00Z", strategy: .iso8601) else {
                    throw .invalid(field: field, reason: "must be a date such as 2026-11-01")
                }
                return date
            }
            let last = try day(to, "to")
            return AuditFilter(actor: actor, action: action, customerId: customer, from: try day(from, "from"), to: last?.addingTimeInterval(86_400))
        }

        /// The entry to start before, refused naming the field when it is not an entry id.
        func beforeId() throws(StoregateError) -> Int64? {
            guard let before else { return nil }
            guard let id = Int64(before) else { throw .invalid(field: "before", reason: "must be an entry id") }
            return id
        }

        /// The same filter as a query, starting before `id`.
        func query(before id: Int64?) -> String {
            let pairs = [("actor", actor), ("action", action), ("customer", customer), ("from", from), ("to", to), ("before", id.map(String.init))]
            return pairs.compactMap { name, value in value.map { name + "=" + ConsoleRoutes.query($0) } }.joined(separator: "&")
        }
    }

    @Sendable func audit(_ request: Request, context: Context) async throws -> Response {
        let session = try context.requireIdentity()
        guard session.user.role.mayReadAudit else {
            return pages.message("Not allowed", "Only admins see the tenant's audit log.", session: session, status: .forbidden)
        }
        let query = try request.uri.decodeQuery(as: AuditQuery.self, context: context)
        var frame = Pages.Frame(title: "Audit log", session: session)
        var model: [String: Any] = [
            "actor": query.actor ?? "", "action": query.action ?? "", "customer": query.customer ?? "", "from": query.from ?? "", "to": query.to ?? "",
        ]
        do {
            let page = try await capabilities.audit.list(tenant: session.tenant, filter: try query.filter(), before: try query.beforeId(), limit: nil)
            model["entries"] = page.entries.map(Self.auditRow)
            if let next = page.next { model["older"] = "/console/audit?" + query.query(before: next) }
            if query.before != nil { model["newest"] = "/console/audit?" + query.query(before: nil) }
        } catch let error as StoregateError {
            let message = FailureMessage(error)
            (frame.error, frame.errorDetail) = (message.text, message.detail)
            return pages.page("audit", model, frame: frame, status: Self.status(error))
        }
        return pages.page("audit", model, frame: frame)
    }

    /// One entry as the page shows it: its detail as `name value` pairs, the customer apart and linked.
    static func auditRow(_ entry: AuditEntry) -> [String: Any] {
        let object = (try? JSONSerialization.jsonObject(with: Data(entry.detail.utf8))) as? [String: Any] ?? [:]
        let detail = object.filter { $0.key != "customerId" }.sorted { $0.key < $1.key }.map { name, value in
            ["name": name, "value": value as? String ?? (value as? NSNumber)?.stringValue ?? "\(value)"]
        }
        var row: [String: Any] = ["id": String(entry.id), "at": shown(entry.at), "actor": entry.actor, "action": entry.action, "detail": detail]
        if let customerId = entry.customerId {
            row["customerId"] = customerId
            row["customerURL"] = "/console/customer?id=" + query(customerId)
        }
        return row
    }
}
