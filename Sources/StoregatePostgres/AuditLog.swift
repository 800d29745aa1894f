import Foundation
import Logging
import PostgresNIO

/// The append-only audit log in the control schema. Details never hold secrets.
public struct AuditLog: Sendable {
    let logger: Logger
    public init(logger: Logger) { self.logger = logger }

    public func record(actor: String, tenantId: UUID?, action: String, detail: [String: String] = [:], on conn: PostgresConnection) async throws {
        let json = String(decoding: try JSONEncoder().encode(detail), as: UTF8.self)
        try await conn.run(
            "INSERT INTO storegate.audit_log (actor, tenant_id, action, detail) VALUES (\(actor), \(tenantId), \(action), \(json)::jsonb)", logger: logger)
    }

    /// One entry to append; `detail` is a JSON object.
    public struct NewEntry: Sendable {
        public let actor: String
        public let tenantId: UUID
        public let action: String
        public let detail: String
        public init(actor: String, tenantId: UUID, action: String, detail: String) {
            self.actor = actor
            self.tenantId = tenantId
            self.action = action
            self.detail = detail
        }
    }

    /// Appends many entries in one statement, in order.
    public func record(_ entries: [NewEntry], on conn: PostgresConnection) async throws {
        guard !entries.isEmpty else { return }
        try await conn.run(
            """
            INSERT INTO storegate.audit_log (actor, tenant_id, action, detail)
            SELECT a, t, x, d::jsonb FROM unnest(\(entries.map(\.actor))::text[], \(entries.map(\.tenantId))::uuid[], \(entries.map(\.action))::text[],
                                                 \(entries.map(\.detail))::text[]) WITH ORDINALITY AS e(a, t, x, d, n)
            ORDER BY n
            """, logger: logger)
    }

    public struct Entry: Sendable, Codable, Equatable {
        public let at: Date
        public let actor: String
        public let action: String
        public let detail: String
    }

    public func entries(tenantId: UUID, on conn: PostgresConnection) async throws -> [Entry] {
        var out: [Entry] = []
        let rows = try await conn.query(
            "SELECT at, actor, action, detail::text FROM storegate.audit_log WHERE tenant_id = \(tenantId) ORDER BY id", logger: logger)
        for try await row in rows.decode((Date, String, String, String).self) { out.append(Entry(at: row.0, actor: row.1, action: row.2, detail: row.3)) }
        return out
    }
}
