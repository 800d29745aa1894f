import Foundation
import PostgresNIO
import Storegate

/// The catalog document in the tenant's schema, and the products its transactions name.
struct CatalogRepository: CatalogStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    /// Read once per unit of work (`UnitChanges.knownCatalog`).
    func catalog() async throws -> Catalog? {
        if let known = scope.changes.knownCatalog { return known }
        let read = try await scope.first("SELECT document::text FROM \(unescaped: schema).catalog", as: String.self)
            .map { try JSONColumn.decode(Catalog.self, from: $0, column: "catalog.document") }
        scope.changes.know(.some(read))
        return read
    }

    /// Announces the tenant on the change feed in the same statement (heard as the unit commits): every
    /// process's `CatalogCache` drops the tenant's catalog. Tenant schemas have no triggers (`ChangeFeed`).
    func setCatalog(_ catalog: Catalog, by actor: String) async throws {
        let json = try JSONColumn.encode(catalog)
        scope.changes.know(nil)
        try await scope.run(
            """
            WITH saved AS (
                INSERT INTO \(unescaped: schema).catalog (document, updated_by) VALUES (\(json)::jsonb, \(actor))
                ON CONFLICT (one) DO UPDATE SET document = excluded.document, updated_at = now(), updated_by = excluded.updated_by
                RETURNING one
            )
            SELECT pg_notify(\(ChangeFeed.channel), \(scope.tenantId.uuidString.lowercased())) FROM saved
            """)
    }

    func productsSeen() async throws -> [(appId: UUID, productId: String, transactions: Int)] {
        try await scope.all(
            "SELECT app_id, product_id, count(*) FROM \(unescaped: schema).transactions GROUP BY app_id, product_id ORDER BY app_id, product_id"
        ) { row in
            let (appId, productId, count) = try row.decode((UUID, String, Int64).self)
            return (appId, productId, Int(count))
        }
    }
}

extension PostgresTenantUnit {
    var catalog: any CatalogStore { CatalogRepository(scope: scope) }
}
