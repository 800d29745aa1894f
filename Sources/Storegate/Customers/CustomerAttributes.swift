import Contract
import Foundation

extension Rule {
    /// An attribute's key: 1 to 64 characters of A-Z, a-z, 0-9, '_', '.', ':' and '-'.
    public static let attributeKey = Rule.characters("A-Za-z0-9_.:-", count: 1...64)
    /// An attribute's value: 1 to 500 characters of text.
    public static let attributeValue = Rule.text(max: 500)
}

/// The tenant's own facts about a customer, a text value per key (such as `plan: team` or
/// `crmId: 0042`): at most `most` of them, set and removed over RPC or in the console.
public enum CustomerAttributes {
    /// At most this many attributes per customer.
    public static let most = 50

    /// The attributes after `set` and `remove` are applied to `current`, checked: keys and values by their
    /// rules, a key not both set and removed, and at most `most` in all.
    public static func applying(set: [String: String], remove: [String], to current: [String: String]) throws(StoregateError) -> [String: String] {
        for (key, value) in set {
            _ = try Validate.rule(.attributeKey, key, field: "set")
            _ = try Validate.rule(.attributeValue, value, field: "set.\(key)")
        }
        for key in remove { _ = try Validate.rule(.attributeKey, key, field: "remove") }
        if let both = remove.first(where: { set[$0] != nil }) {
            throw .invalid(field: "remove", reason: "names \(both), which set also names")
        }
        var result = current
        for key in remove { result[key] = nil }
        result.merge(set) { $1 }
        guard result.count <= most else {
            throw .invalid(field: "set", reason: "would leave \(result.count) attributes; at most \(most) per customer")
        }
        return result
    }
}

/// A customer's attributes as they stand.
@RPCObject(title: "CustomerAttributes") public struct CustomerAttributeList: Sendable, Equatable {
    public let customerId: String
    public let attributes: [String: String]
    /// When the most recently set of them was set; absent when there are none.
    public let updatedAt: Date?
}

/// A support note about a customer.
@RPCObject(title: "CustomerNote") public struct CustomerNote: Sendable, Equatable {
    /// `cn_` and the note's UUID.
    public let noteId: String
    /// Who wrote it: `console:` and the person's email, `apikey:` and the key's prefix, or `cli:` and the user.
    public let author: String
    public let text: String
    public let createdAt: Date

    public init(noteId: String, author: String, text: String, createdAt: Date) {
        (self.noteId, self.author, self.text, self.createdAt) = (noteId, author, text, createdAt)
    }
}

@RPCObject(title: "CustomerNotes") public struct CustomerNotePage: Sendable {
    public let customerId: String
    /// Newest first.
    public let notes: [CustomerNote]
    /// The `before` of the next page, when there are older notes.
    public let next: String?
}

/// A customer's attributes and notes in the tenant's schema (tenant migration 26).
public protocol CustomerProfileStore: Sendable {
    /// Every attribute of the customer, and when the most recently set of them was set.
    func attributes(customer: UUID) async throws -> (values: [String: String], updatedAt: Date?)
    /// Sets and removes attributes; the customer's row is locked first, so changes to one customer are one at a time.
    func change(customer: UUID, set: [String: String], remove: [String]) async throws
    func lock(customer: UUID) async throws
    func add(note: UUID, customer: UUID, author: String, text: String) async throws -> Date
    /// Newest first, older than the note `before` when given.
    func notes(customer: UUID, before: UUID?, limit: Int) async throws -> [(id: UUID, author: String, text: String, createdAt: Date)]
    /// Whether the note was the customer's and is now gone.
    func delete(note: UUID, customer: UUID) async throws -> Bool
}
