import Contract
import Foundation

/// A customer's attributes and support notes (`customers.attributes`, `customers.setAttributes`,
/// `customers.notes`, `customers.addNote`, `customers.deleteNote`, and the console's customer page). Each
/// change is audited by what it touched (the keys, the note's id), never by the values or the text.
public struct CustomerProfileService: Sendable {
    let persistence: any Persistence

    /// At most this many characters in a note (lines count as text; other control characters are refused).
    public static let noteLength = 4_000
    public static let notePage = PageSize(standard: 50, maximum: 200)

    public func attributes(tenant: Tenant, customerId: String) async throws -> CustomerAttributeList {
        try await persistence.inTenant(tenant, .read) { unit in
            let customer = try await Self.customer(customerId, in: unit)
            let (values, updatedAt) = try await unit.customerProfiles.attributes(customer: customer)
            return CustomerAttributeList(customerId: customerId, attributes: values, updatedAt: updatedAt)
        }
    }

    public func setAttributes(
        tenant: Tenant, customerId: String, set: [String: String], remove: [String], actor: Actor
    ) async throws -> CustomerAttributeList {
        guard !set.isEmpty || !remove.isEmpty else { throw StoregateError.invalid(field: "set", reason: "or remove must name an attribute") }
        return try await persistence.inTenant(tenant) { unit in
            let customer = try await Self.customer(customerId, in: unit)
            try await unit.customerProfiles.lock(customer: customer)
            let current = try await unit.customerProfiles.attributes(customer: customer).values
            _ = try CustomerAttributes.applying(set: set, remove: remove, to: current)
            try await unit.customerProfiles.change(customer: customer, set: set, remove: remove)
            try await unit.audit(
                actor, "customer.setAttributes",
                ["customerId": customerId, "set": set.keys.sorted().joined(separator: ","), "removed": remove.sorted().joined(separator: ",")])
            let (values, updatedAt) = try await unit.customerProfiles.attributes(customer: customer)
            return CustomerAttributeList(customerId: customerId, attributes: values, updatedAt: updatedAt)
        }
    }

    public func notes(tenant: Tenant, customerId: String, before: String?, limit: Int) async throws -> CustomerNotePage {
        let before = try before.map { text throws(StoregateError) in
            guard let id = PrefixedID.decode("cn_", text) else { throw .invalid(field: "before", reason: "must be a noteId such as cn_…") }
            return id
        }
        return try await persistence.inTenant(tenant, .read) { unit in
            let customer = try await Self.customer(customerId, in: unit)
            let rows = try await unit.customerProfiles.notes(customer: customer, before: before, limit: limit + 1)
            let notes = rows.prefix(limit).map {
                CustomerNote(noteId: PrefixedID.encode("cn_", $0.id), author: $0.author, text: $0.text, createdAt: $0.createdAt)
            }
            return CustomerNotePage(customerId: customerId, notes: Array(notes), next: rows.count > limit ? notes.last?.noteId : nil)
        }
    }

    public func addNote(tenant: Tenant, customerId: String, text: String, actor: Actor) async throws -> CustomerNote {
        let text = try Self.note(text)
        let id = UUID()
        return try await persistence.inTenant(tenant) { unit in
            let customer = try await Self.customer(customerId, in: unit)
            let createdAt = try await unit.customerProfiles.add(note: id, customer: customer, author: actor.description, text: text)
            let noteId = PrefixedID.encode("cn_", id)
            try await unit.audit(actor, "customer.addNote", ["customerId": customerId, "noteId": noteId])
            return CustomerNote(noteId: noteId, author: actor.description, text: text, createdAt: createdAt)
        }
    }

    public func deleteNote(tenant: Tenant, customerId: String, noteId: String, actor: Actor) async throws {
        guard let id = PrefixedID.decode("cn_", noteId) else { throw StoregateError.invalid(field: "noteId", reason: "must be a noteId such as cn_…") }
        try await persistence.inTenant(tenant) { unit in
            let customer = try await Self.customer(customerId, in: unit)
            guard try await unit.customerProfiles.delete(note: id, customer: customer) else {
                throw StoregateError.notFound(field: "noteId", value: noteId)
            }
            try await unit.audit(actor, "customer.deleteNote", ["customerId": customerId, "noteId": noteId])
        }
    }

    /// A note's text: trimmed, 1 to `noteLength` characters, lines allowed, no other control character.
    static func note(_ text: String) throws(StoregateError) -> String {
        let text = text.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .invalid(field: "text", reason: "is required") }
        guard text.count <= noteLength else { throw .invalid(field: "text", reason: "must be at most \(noteLength) characters") }
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            _ = try Validate.rule(.text(max: noteLength), String(line), field: "text")
        }
        return text
    }

    static func customer(_ customerId: String, in unit: any TenantUnit) async throws -> UUID {
        guard let customer = try await unit.customers.find(customerId: customerId) else {
            throw StoregateError.notFound(field: "customerId", value: customerId)
        }
        return customer.id
    }
}
