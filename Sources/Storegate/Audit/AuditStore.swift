import Foundation

/// The tenant's audit log, read a page at a time. Appending stays with the unit (`TenantUnit.audit`).
public protocol AuditStore: Sendable {
    /// The tenant's entries that `filter` admits, with ids below `before` when given, newest first: at most `limit`.
    func page(_ filter: AuditFilter, before: Int64?, limit: Int) async throws -> [AuditEntry]
}
