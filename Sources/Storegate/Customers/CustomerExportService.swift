import AppStoreServer
import Contract
import Foundation

/// `customers.export` and the console's download: everything Storegate holds about one customer as one
/// document (GDPR Art. 15), read in one snapshot (a repeatable-read transaction) and audited
/// (`customer.export`, by the customer's id) in the same transaction.
public struct CustomerExportService: Sendable {
    let persistence: any Persistence

    /// The format `CustomerExport.formatVersion` names.
    public static let formatVersion = 1
    /// At most this many events, notifications, webhook deliveries and audit entries each; a customer's
    /// other lists grow with their purchases only and are whole. A list cut is named in `truncated`.
    public static let most = 10_000

    public func export(tenant: Tenant, customerId: String, actor: Actor, most: Int = most, now: Date = Date()) async throws -> CustomerExport {
        let customerId = try Validate.customerId(customerId)
        // Notifications processed before their purchase series was recorded are found by it once labelled.
        try await CustomerErasureService(persistence: persistence).labelNotifications(tenant: tenant)
        return try await persistence.inTenant(tenant, .write) { unit in
            try await unit.customerExports.beginSnapshot()
            guard let rows = try await unit.customerExports.rows(customerId: customerId, most: most) else {
                throw StoregateError.notFound(field: "customerId", value: customerId)
            }
            var truncated: [String] = []
            func cut(_ name: String, _ list: [JSONValue]) -> [JSONValue] {
                guard list.count > most else { return list }
                truncated.append(name)
                return Array(list.prefix(most))
            }
            let events = cut("events", try await unit.events.find(sequences: rows.eventSequences).map(Self.event))
            let notifications = cut("notifications", try Self.list(rows.notifications))
            let deliveries = cut("webhookDeliveries", try Self.list(rows.webhookDeliveries))
            let audit = cut("audit", try Self.list(rows.audit))
            let bundleIds = Dictionary(try await unit.apps.list().map { ($0.id, $0.bundleId) }, uniquingKeysWith: { a, _ in a })
            let grants = try await unit.grants.list(customer: rows.customer.id, ended: true).map {
                GrantView($0, bundleId: $0.appId.flatMap { bundleIds[$0] })
            }
            let notes = try await unit.customerProfiles.notes(customer: rows.customer.id, before: nil, limit: Int.max).map {
                CustomerNote(noteId: PrefixedID.encode("cn_", $0.id), author: $0.author, text: $0.text, createdAt: $0.createdAt)
            }
            try await unit.audit(actor, "customer.export", ["customerId": customerId])
            return CustomerExport(
                formatVersion: Self.formatVersion, exportedAt: now,
                customer: [
                    "customerId": .string(rows.customer.customerId), "appAccountToken": .string(rows.customer.appAccountToken.uuidString.lowercased()),
                    "createdAt": .string(Self.iso8601(rows.customer.createdAt)),
                ],
                links: try Self.list(rows.links), transactions: try Self.list(rows.transactions), appTransactions: try Self.list(rows.appTransactions),
                subscriptions: try Self.list(rows.subscriptions), renewalExtensions: try Self.list(rows.renewalExtensions),
                refundOutcomes: try Self.list(rows.refundOutcomes), consumptionRequests: try Self.list(rows.consumptionRequests),
                consumptionFacts: try Self.list(rows.consumptionFacts), grants: grants, entitlementsEvented: try Self.list(rows.entitlementsEvented),
                events: events, notifications: notifications, webhookDeliveries: deliveries, attributes: try Self.list(rows.attributes), notes: notes,
                audit: audit, truncated: truncated)
        }
    }

    /// An event as `events.list` shows it, without a signed payload.
    static func event(_ event: Event) throws -> JSONValue {
        .object([
            ("id", .string(event.displayId)), ("type", .string(event.type.rawValue)), ("sequence", .number(String(event.sequence))),
            ("createdAt", .string(iso8601(event.createdAt))), ("bundleId", event.bundleId.map(JSONValue.string) ?? .null),
            ("environment", event.environment.map { .string($0.rawValue) } ?? .null), ("customerId", event.customerId.map(JSONValue.string) ?? .null),
            ("data", try json(event.data)),
        ])
    }

    static func list(_ text: String) throws -> [JSONValue] {
        guard case .array(let items) = try json(text) else { return [] }
        return items
    }

    static func json(_ text: String) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) }

    static func iso8601(_ date: Date) -> String { date.formatted(.iso8601) }
}
