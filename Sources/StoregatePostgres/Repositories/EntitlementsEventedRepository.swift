import Foundation
import PostgresNIO
import Storegate

/// The entitlement names last evented per customer (tenant migration 23), read with the customers'
/// holdings in one statement at the end of a unit that wrote them.
struct EntitlementsEventedRepository: EntitlementsEventedStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    /// The holdings statement of `entitlements.list` for several customers at once, each row with the
    /// customer's names last evented. Prepared once it repeats on a connection.
    func holdingsAndEvented(customers: [UUID]) async throws -> [(holdings: Holdings, evented: [String])] {
        let rows = try await scope.prepared(
            """
            SELECT c.id, e.names, h.* FROM \(unescaped: schema).customers c
            LEFT JOIN \(unescaped: schema).entitlements_evented e ON e.customer = c.id
            LEFT JOIN LATERAL (\(unescaped: HoldingsSQL.entitlements(schema))) h ON true
            WHERE c.id = ANY(\(customers)::uuid[])
            ORDER BY c.id, h.kind, h.app_id, h.subscription_group_identifier, h.signed_date DESC, h.p_purchase_date
            """
        ) { row -> (UUID, [String], HoldingsSQL.Held?) in
            var cells = Cells(row)
            let customer: UUID = try cells.next("id")
            let evented = try cells.next("names", [String]?.self) ?? []
            return (customer, evented, try HoldingsSQL.held(&cells))
        }
        var found: [(holdings: Holdings, evented: [String])] = []
        var start = rows.startIndex
        while start < rows.endIndex {
            let customer = rows[start].0
            let end = rows[start...].firstIndex { $0.0 != customer } ?? rows.endIndex
            found.append((HoldingsSQL.holdings(customer: customer, rows[start..<end].map(\.2)), rows[start].1))
            start = end
        }
        return found
    }

    /// One statement for every customer; each customer's names travel as a JSON array.
    func record(_ evented: [(customer: UUID, names: [String])]) async throws {
        guard !evented.isEmpty else { return }
        let names = try evented.map { String(decoding: try JSONEncoder().encode($0.names), as: UTF8.self) }
        try await scope.prepared(
            """
            INSERT INTO \(unescaped: schema).entitlements_evented (customer, names, updated_at)
            SELECT x.customer, ARRAY(SELECT n FROM jsonb_array_elements_text(x.names::jsonb) WITH ORDINALITY AS a(n, i) ORDER BY i), now()
            FROM unnest(\(evented.map(\.customer))::uuid[], \(names)::text[]) AS x(customer, names)
            ON CONFLICT (customer) DO UPDATE SET names = excluded.names, updated_at = excluded.updated_at
            """)
    }
}

extension PostgresTenantUnit {
    var entitlementsEvented: any EntitlementsEventedStore { EntitlementsEventedRepository(scope: scope) }
}
