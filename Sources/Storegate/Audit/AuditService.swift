import Foundation

/// A tenant's audit log, as its backend (`audit.list`) and its admins (the console's audit page) read it:
/// who did what, to whom and when, newest first, a page at a time. Only the tenant's own entries are ever
/// in reach: the store is the tenant unit's.
public struct AuditService: Sendable {
    let persistence: any Persistence

    public static let page = PageSize(standard: 50, maximum: 200)

    /// A page of entries, and where the next one starts.
    public struct Page: Sendable {
        public let entries: [AuditEntry]
        /// Pass as `before` to read older entries; nil when there are none.
        public let next: Int64?
    }

    /// The entries `filter` admits, newest first, older than the entry `before` when given.
    public func list(tenant: Tenant, filter: AuditFilter, before: Int64?, limit: Int?) async throws -> Page {
        let filter = try filter.checked()
        if let before, before < 1 { throw StoregateError.invalid(field: "before", reason: "must be an entry id, 1 or more") }
        let limit = try Self.page.limit(limit)
        // One more than asked says whether an older page exists, without a second query.
        let found = try await persistence.inTenant(tenant, .read) { unit in
            try await unit.auditEntries.page(filter, before: before, limit: limit + 1)
        }
        let entries = Array(found.prefix(limit))
        return Page(entries: entries, next: found.count > limit ? entries.last?.id : nil)
    }
}
