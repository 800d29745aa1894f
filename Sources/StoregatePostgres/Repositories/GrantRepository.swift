import Foundation
import PostgresNIO
import Storegate

/// Grants in the tenant's schema. Every write changes the customer's holdings.
struct GrantRepository: GrantStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    /// The columns a `Grant` is read from, in the order `grant(_:)` reads them.
    static let columns: [Column] = [
        Column("g.id", "uuid"), Column("g.customer", "uuid"), Column("g.app_id", "uuid"), Column("g.product_id", "text"),
        Column("g.entitlement", "text"), Column("g.starts_at", "timestamptz"), Column("g.expires_at", "timestamptz"), Column("g.reason", "text"),
        Column("g.granted_by", "text"), Column("g.granted_at", "timestamptz"), Column("g.revoked_at", "timestamptz"), Column("g.revoked_by", "text"),
        Column("g.revoke_reason", "text"),
    ]

    func insert(_ g: Grant) async throws {
        try await scope.run(
            """
            INSERT INTO \(unescaped: schema).grants (id, customer, app_id, product_id, entitlement, starts_at, expires_at, reason, granted_by, granted_at)
            VALUES (\(g.id), \(g.customer), \(g.appId), \(g.productId), \(g.entitlement), \(g.startsDate), \(g.expiresDate), \(g.reason), \(g.grantedBy),
                    \(g.grantedDate))
            """)
        scope.changes.holdings(of: g.customer)
    }

    func revoke(id: UUID, customer: UUID, by actor: String, reason: String?, at date: Date) async throws -> (grant: Grant, revoked: Bool)? {
        // The row as it was, locked, then the update: rare enough for two statements.
        guard
            let before = try await scope.all(
                "SELECT \(unescaped: Self.columns.selected) FROM \(unescaped: schema).grants g WHERE g.id = \(id) AND g.customer = \(customer) FOR UPDATE",
                Self.grant
            ).first
        else { return nil }
        guard before.revokedDate == nil else { return (before, false) }
        try await scope.run(
            """
            UPDATE \(unescaped: schema).grants SET revoked_at = \(date), revoked_by = \(actor), revoke_reason = \(reason)
            WHERE id = \(id) AND customer = \(customer)
            """)
        scope.changes.holdings(of: customer)
        var after = before
        after.revokedDate = date
        after.revokedBy = actor
        after.revokeReason = reason
        return (after, true)
    }

    func list(customer: UUID, ended: Bool) async throws -> [Grant] {
        try await scope.all(
            """
            SELECT \(unescaped: Self.columns.selected) FROM \(unescaped: schema).grants g
            WHERE g.customer = \(customer) AND (\(ended) OR (g.revoked_at IS NULL AND g.expires_at > now()))
            ORDER BY g.granted_at DESC, g.id
            """, Self.grant)
    }

    static func grant(_ row: PostgresRow) throws -> Grant {
        var cells = Cells(row)
        return try grant(&cells)
    }

    /// A grant from the next cells of a row, each read by its name in `columns`.
    static func grant(_ c: inout Cells) throws -> Grant {
        let id: UUID = try c.next("id")
        let customer: UUID = try c.next("customer")
        let appId: UUID? = try c.next("app_id")
        let productId: String? = try c.next("product_id")
        let entitlement: String? = try c.next("entitlement")
        let target: Grant.Target
        if let appId, let productId {
            target = .product(appId: appId, productId: productId)
        } else if let entitlement {
            target = .entitlement(entitlement)
        } else {
            throw DatabaseError.unreadable("grant \(id) names neither a product nor an entitlement")
        }
        return Grant(
            id: id, customer: customer, target: target, startsDate: try c.next("starts_at"), expiresDate: try c.next("expires_at"),
            reason: try c.next("reason"), grantedBy: try c.next("granted_by"), grantedDate: try c.next("granted_at"), revokedDate: try c.next("revoked_at"),
            revokedBy: try c.next("revoked_by"), revokeReason: try c.next("revoke_reason"))
    }
}

extension PostgresTenantUnit {
    var grants: any GrantStore { GrantRepository(scope: scope) }
}
