import Foundation

/// Hot-path audit entries (offer signing, retention answers), group-committed: callers wait until their
/// entry is committed, but concurrent callers share one INSERT, and identical entries of one write (same
/// actor, tenant, action and detail) share one row whose detail carries their `count`. Nothing is
/// acknowledged before its audit entry is durable (`DeferredAudits` holds a response's entries until it
/// is about to be sent).
final class AuditBatcher: Sendable {
    struct Entry: Hashable, Sendable {
        let actor: String
        let tenantId: UUID
        let action: String
        let detail: [String: String]
    }

    private let commits: GroupCommit<Bool, Entry, Void>

    init(persistence: any Persistence) {
        commits = GroupCommit(write: { _, entries in
            let rows = try Self.rows(entries)
            try await persistence.control(.read) { try await $0.audit(rows) }
        })
    }

    /// Returns once `entry` is committed; within `DeferredAudits.run`, at once, the entry held until it
    /// writes its response's entries.
    func record(_ entry: Entry) async throws {
        if let deferred = DeferredAudits.current, deferred.hold(entry, for: self) { return }
        try await commits.record(entry, key: true)
    }

    /// Returns once all of `entries` are committed (in one write).
    func record(_ entries: [Entry]) async throws { try await commits.record(entries, key: true) }

    /// One row per distinct entry, in order of first appearance, each with how many it stands for.
    static func rows(_ entries: [Entry]) throws -> [NewAuditEntry] {
        var position: [Entry: Int] = [:]
        var distinct: [(entry: Entry, count: Int)] = []
        for entry in entries {
            if let i = position[entry] {
                distinct[i].count += 1
            } else {
                position[entry] = distinct.count
                distinct.append((entry, 1))
            }
        }
        let encoder = JSONEncoder()
        return try distinct.map { entry, count in
            let json = try encoder.encode(CountedDetail(detail: entry.detail, count: count))
            return NewAuditEntry(actor: entry.actor, tenantId: entry.tenantId, action: entry.action, detail: String(decoding: json, as: UTF8.self))
        }
    }

    /// An entry's detail with its `count` beside the other members.
    struct CountedDetail: Encodable {
        let detail: [String: String]
        let count: Int

        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in detail where key != "count" { try container.encode(value, forKey: Key(stringValue: key)) }
            try container.encode(count, forKey: Key(stringValue: "count"))
        }
    }
}
