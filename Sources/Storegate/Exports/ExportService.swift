import Contract
import Foundation

/// A page of an export, as `exports.read` answers: text in the format asked for (CSV's header line on the
/// first page only), and the cursor of the next page (none after the last).
@RPCObject(title: "ExportPage") public struct ExportPage: Sendable {
    public let what: ExportKind
    public let format: ExportFormat
    /// How many rows `text` holds.
    public let rows: Int
    public let text: String
    /// Pass as `cursor` for the next page; absent after the last.
    public let next: String?
}

/// Exports of a tenant's transactions, events and subscriptions over a date range, as CSV or
/// newline-delimited JSON, read a page at a time in a stable order (so a long export never holds a
/// transaction open or a whole table in memory).
public struct ExportService: Sendable {
    let persistence: any Persistence

    public static let page = PageSize(standard: 1_000, maximum: 10_000)

    public func page(
        tenant: Tenant, what: ExportKind, from: Date, to: Date, format: ExportFormat, cursor: String?, limit: Int?
    ) async throws -> ExportPage {
        guard from < to else { throw StoregateError.invalid(field: "to", reason: "must be after from") }
        let limit = try Self.page.limit(limit)
        let read = try await persistence.inTenant(tenant, .read) { try await $0.exports.rows(what, from: from, to: to, after: cursor, limit: limit) }
        let text = ExportWriter.text(read.rows, columns: what.columns, format: format, header: cursor == nil)
        return ExportPage(what: what, format: format, rows: read.rows.count, text: text, next: read.next)
    }

    /// Every page in turn, each handed to `write` (`storegate export`).
    public func export(
        tenant: Tenant, what: ExportKind, from: Date, to: Date, format: ExportFormat, write: (String) throws -> Void
    ) async throws {
        var cursor: String?
        repeat {
            let page = try await page(tenant: tenant, what: what, from: from, to: to, format: format, cursor: cursor, limit: Self.page.maximum)
            try write(page.text)
            cursor = page.next
        } while cursor != nil
    }
}
