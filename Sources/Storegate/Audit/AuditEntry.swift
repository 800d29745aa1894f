import Foundation

/// One line of the append-only audit log. Details never hold secrets.
public struct AuditEntry: Sendable, Codable, Equatable {
    /// The entry's place in the log: later entries have larger ids.
    public let id: Int64
    public let at: Date
    public let actor: String
    public let action: String
    /// The tenant's id of the customer the action concerned: the detail's `customerId`, when it has one.
    public let customerId: String?
    /// A JSON object.
    public let detail: String

    public init(id: Int64, at: Date, actor: String, action: String, customerId: String? = nil, detail: String) {
        self.id = id
        self.at = at
        self.actor = actor
        self.action = action
        self.customerId = customerId
        self.detail = detail
    }
}
/// An audit entry to append; `detail` is a JSON object.
public struct NewAuditEntry: Sendable {
    public let actor: String
    public let tenantId: UUID?
    public let action: String
    public let detail: String

    public init(actor: String, tenantId: UUID?, action: String, detail: String) {
        self.actor = actor
        self.tenantId = tenantId
        self.action = action
        self.detail = detail
    }

    /// An entry whose detail is a flat object of strings.
    public init(actor: Actor, tenantId: UUID?, action: String, detail: [String: String] = [:]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        self.init(actor: actor.description, tenantId: tenantId, action: action, detail: String(decoding: try encoder.encode(detail), as: UTF8.self))
    }
}
/// Who did something, for the audit log: `apikey:<prefix>`, `console:<email>`, `cli:<user>`, or
/// `apple:retention` for Apple's retention requests.
public struct Actor: Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
    /// The CLI's actor: the effective user running it (not `$USER`, which may be unset or anything).
    public static var cli: Actor { Actor("cli:" + NSUserName()) }
}
