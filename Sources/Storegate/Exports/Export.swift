import Contract
import Foundation

/// What an export holds: the tenant's transactions (by purchase date), events (by when they were
/// written) or subscriptions (by when Apple last signed them).
public enum ExportKind: String, Sendable, CaseIterable, Codable, JSONSchemaType {
    case transactions, events, subscriptions

    /// The columns, in order: stable, documented in docs/API.md ("Exports"); new ones are only ever added at the end.
    public var columns: [ExportColumn] {
        switch self {
        case .transactions:
            [
                .text("bundleId"), .text("environment"), .text("transactionId"), .text("originalTransactionId"), .text("customerId"),
                .text("productId"), .text("productType"), .date("purchaseDate"), .date("expiresDate"), .date("revocationDate"),
                .integer("quantity"), .integer("price"), .text("currency"), .text("storefront"), .integer("offerType"), .text("offerIdentifier"),
                .text("inAppOwnershipType"),
            ]
        case .events:
            [
                .integer("sequence"), .text("id"), .text("type"), .date("createdAt"), .text("bundleId"), .text("environment"), .text("customerId"),
                .json("data"),
            ]
        case .subscriptions:
            [
                .text("bundleId"), .text("environment"), .text("originalTransactionId"), .text("customerId"), .text("productId"),
                .integer("status"), .date("purchaseDate"), .date("expiresDate"), .text("autoRenewStatus"), .integer("price"), .text("currency"),
                .date("signedDate"),
            ]
        }
    }
}

/// One column of an export: its name and how its values are written (text, a whole number, an ISO 8601
/// date, or JSON).
public struct ExportColumn: Sendable, Equatable {
    public enum Kind: String, Sendable { case text, integer, date, json }
    public let name: String
    public let kind: Kind

    static func text(_ name: String) -> ExportColumn { ExportColumn(name: name, kind: .text) }
    static func integer(_ name: String) -> ExportColumn { ExportColumn(name: name, kind: .integer) }
    static func date(_ name: String) -> ExportColumn { ExportColumn(name: name, kind: .date) }
    static func json(_ name: String) -> ExportColumn { ExportColumn(name: name, kind: .json) }
}

/// How an export is written.
public enum ExportFormat: String, Sendable, CaseIterable, Codable, JSONSchemaType {
    /// RFC 4180, a header line first; a text cell a spreadsheet would run as a formula (starting with `=`,
    /// `+`, `-`, `@`, a tab or a carriage return) is written after a `'`, as OWASP advises.
    case csv
    /// One JSON object per line, keyed by the columns; numbers as numbers, `data` as its JSON.
    case ndjson
}

/// One page of rows read for an export: each row's values in the kind's column order (nil: empty), and
/// where the next page starts.
public struct ExportRows: Sendable {
    public let rows: [[String?]]
    public let next: String?

    public init(rows: [[String?]], next: String?) {
        self.rows = rows
        self.next = next
    }
}

public protocol ExportStore: Sendable {
    /// Up to `limit` rows of `kind` in `[from, to)`, in a stable order, after `cursor` (from a previous page).
    func rows(_ kind: ExportKind, from: Date, to: Date, after cursor: String?, limit: Int) async throws -> ExportRows
}
