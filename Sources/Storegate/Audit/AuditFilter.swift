import Contract
import Foundation

/// Which of a tenant's audit entries to read: every condition given must hold. The tenant is the unit's,
/// never part of the filter.
public struct AuditFilter: Sendable, Equatable {
    /// Who did it, exactly as the log writes it (`apikey:sg_live_ab12`, `console:ann@example.org`, `cli:root`).
    public var actor: String?
    /// What was done: one action (`entitlement.grant`), or every action under a prefix that ends with a dot (`webhook.`).
    public var action: String?
    /// The tenant's id of the customer the action concerned (the detail's `customerId`).
    public var customerId: String?
    /// From this instant (included).
    public var from: Date?
    /// To this instant (excluded).
    public var to: Date?

    public init(actor: String? = nil, action: String? = nil, customerId: String? = nil, from: Date? = nil, to: Date? = nil) {
        self.actor = actor
        self.action = action
        self.customerId = customerId
        self.from = from
        self.to = to
    }

    /// Whether `action` names every action under a prefix rather than one action.
    public var actionIsPrefix: Bool { action?.hasSuffix(".") == true }

    /// The same filter, each field checked and refused naming it; the customer id trimmed.
    func checked() throws(StoregateError) -> AuditFilter {
        var filter = self
        if let actor { filter.actor = try Validate.rule(.auditActor, actor, field: "actor") }
        if let action { filter.action = try Validate.rule(.auditAction, action, field: "action") }
        if let customerId { filter.customerId = try Validate.customerId(customerId) }
        if let from, let to, to <= from { throw .invalid(field: "to", reason: "must be later than from") }
        return filter
    }
}

extension Rule {
    /// Who did something, as the audit log writes it.
    public static let auditActor = Rule.text(max: 300).described(
        "Who did it, exactly as the audit log writes it: apikey:<prefix>, console:<email>, cli:<user>, apple:retention.")
    /// An action of the audit log, or a prefix of actions ending with a dot.
    public static let auditAction = Rule.characters("A-Za-z0-9_.-", count: 1...100).described(
        "One action (entitlement.grant), or every action under a prefix that ends with a dot (webhook.).")
}
