import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// Export pages read from the tenant's schema in a stable order, a page at a time after a cursor (the
/// last row's ordering key, opaque to callers): transactions by purchase date, events by sequence,
/// subscriptions by signed date. Apps' bundle IDs come from the control schema's rows of this tenant only.
struct ExportRepository: ExportStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    static func utc(_ column: String) -> String { "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')" }

    func rows(_ kind: ExportKind, from: Date, to: Date, after cursor: String?, limit: Int) async throws -> ExportRows {
        let width = kind.columns.count
        let (at, id) = try Self.parse(cursor, kind: kind)
        let query: PostgresQuery
        switch kind {
        case .transactions:
            query = """
                SELECT a.bundle_id, t.environment, t.transaction_id, t.original_transaction_id, c.customer_id, t.product_id, t.product_type,
                       \(unescaped: Self.utc("t.purchase_date")), \(unescaped: Self.utc("t.expires_date")), \(unescaped: Self.utc("t.revocation_date")),
                       t.payload ->> 'quantity', t.payload ->> 'price', t.payload ->> 'currency', t.payload ->> 'storefront',
                       t.payload ->> 'offerType', t.payload ->> 'offerIdentifier', t.payload ->> 'inAppOwnershipType',
                       t.purchase_date::text, t.transaction_id
                FROM \(unescaped: schema).transactions t
                JOIN storegate.apps a ON a.id = t.app_id AND a.tenant_id = \(scope.tenantId)
                LEFT JOIN \(unescaped: schema).account_links l
                  ON l.app_id = t.app_id AND l.kind = 'originalTransactionId' AND l.value = t.original_transaction_id
                LEFT JOIN \(unescaped: schema).customers c ON c.id = coalesce(t.customer, l.customer)
                WHERE t.purchase_date >= \(from) AND t.purchase_date < \(to)
                  AND (\(at)::timestamptz IS NULL OR (t.purchase_date, t.transaction_id) > (\(at)::timestamptz, \(id)))
                ORDER BY t.purchase_date, t.transaction_id LIMIT \(limit)
                """
        case .events:
            query = """
                SELECT e.sequence::text, e.id::text, e.type, \(unescaped: Self.utc("e.created_at")), a.bundle_id, e.environment, c.customer_id,
                       e.data::text, e.sequence::text, ''
                FROM \(unescaped: schema).events e
                LEFT JOIN storegate.apps a ON a.id = e.app_id AND a.tenant_id = \(scope.tenantId)
                LEFT JOIN \(unescaped: schema).customers c ON c.id = e.customer
                WHERE e.created_at >= \(from) AND e.created_at < \(to) AND e.sequence > \(Int64(id ?? "0") ?? 0)
                ORDER BY e.sequence LIMIT \(limit)
                """
        case .subscriptions:
            query = """
                SELECT a.bundle_id, s.environment, s.original_transaction_id, c.customer_id, s.product_id, s.status::text,
                       \(unescaped: Self.utc("s.purchase_date")), \(unescaped: Self.utc("s.expires_date")), s.auto_renew_status::text, s.price::text,
                       s.currency, \(unescaped: Self.utc("s.signed_date")), s.signed_date::text, s.original_transaction_id
                FROM \(unescaped: schema).subscriptions s
                JOIN storegate.apps a ON a.id = s.app_id AND a.tenant_id = \(scope.tenantId)
                LEFT JOIN \(unescaped: schema).account_links l
                  ON l.app_id = s.app_id AND l.kind = 'originalTransactionId' AND l.value = s.original_transaction_id
                LEFT JOIN \(unescaped: schema).customers c ON c.id = coalesce(s.customer, l.customer)
                WHERE s.signed_date >= \(from) AND s.signed_date < \(to)
                  AND (\(at)::timestamptz IS NULL OR (s.signed_date, s.original_transaction_id) > (\(at)::timestamptz, \(id)))
                ORDER BY s.signed_date, s.original_transaction_id LIMIT \(limit)
                """
        }
        var last: (String?, String?) = (nil, nil)
        let rows = try await scope.all(query) { row -> [String?] in
            let cells = row.makeRandomAccess()
            let values = try (0..<(width + 2)).map { try cells[$0].decode(String?.self) }
            last = (values[width], values[width + 1])
            return Array(values.prefix(width))
        }
        let next = rows.count == limit ? Self.cursor(at: last.0, id: last.1) : nil
        return ExportRows(rows: rows, next: next)
    }

    /// A cursor is the last row's key, base64url of `at` and `id` joined by a newline.
    static func cursor(at: String?, id: String?) -> String {
        Base64URL.encode(Data(((at ?? "") + "\n" + (id ?? "")).utf8))
    }

    static func parse(_ cursor: String?, kind: ExportKind) throws -> (at: String?, id: String?) {
        guard let cursor else { return (nil, nil) }
        guard let data = Base64URL.decode(cursor), let text = String(data: data, encoding: .utf8) else {
            throw StoregateError.invalid(field: "cursor", reason: "is not a cursor of an export")
        }
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, parts[1].count <= 200 else { throw StoregateError.invalid(field: "cursor", reason: "is not a cursor of an export") }
        if kind == .events {
            guard Int64(parts[1]) != nil else { throw StoregateError.invalid(field: "cursor", reason: "is not a cursor of an events export") }
            return (nil, parts[1])
        }
        // A timestamp as PostgreSQL wrote it: digits, '-', ':', '.', '+', ' '.
        guard !parts[0].isEmpty, parts[0].allSatisfy({ $0.isNumber || "-:.+ ".contains($0) }) else {
            throw StoregateError.invalid(field: "cursor", reason: "is not a cursor of a \(kind.rawValue) export")
        }
        return (parts[0], parts[1])
    }
}

extension PostgresTenantUnit {
    var exports: any ExportStore { ExportRepository(scope: scope) }
}
