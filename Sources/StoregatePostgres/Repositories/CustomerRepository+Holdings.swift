import Foundation
import PostgresNIO
import Storegate

/// A customer's holdings in one statement, so the read every app launch makes costs one round trip: the
/// customer, their subscriptions (stored with them or linked to them by `originalTransactionId`) and,
/// when asked, their other purchases and their grants in force. Rows of every kind share one column list,
/// the other kinds' columns NULL; a customer holding nothing is one row with no kind. Each path skips what the other
/// finds (UNION ALL, no sort of wide rows to remove duplicates). Prepared once it repeats on a connection.
extension CustomerRepository {
    func holdings(customerId: String, purchases: Bool) async throws -> Holdings? {
        let rows = try await scope.prepared(
            """
            SELECT c.id, h.* FROM \(unescaped: schema).customers c
            LEFT JOIN LATERAL (\(unescaped: purchases ? HoldingsSQL.entitlements(schema) : HoldingsSQL.subscriptions(schema))) h ON true
            WHERE c.customer_id = \(customerId)
            ORDER BY h.kind, h.app_id, h.subscription_group_identifier, h.signed_date DESC, h.p_purchase_date
            """
        ) { row -> (UUID, HoldingsSQL.Held?) in
            var cells = Cells(row)
            let customer: UUID = try cells.next("id")
            return (customer, try HoldingsSQL.held(&cells))
        }
        guard let customer = rows.first?.0 else { return nil }
        return HoldingsSQL.holdings(customer: customer, rows.map(\.1))
    }
}

/// The statement's parts, which differ only in the schema name.
enum HoldingsSQL {
    /// A UNION takes its names from its first part, a subscription's: purchases' columns are named `p_` and
    /// theirs, grants' `g_` and theirs.
    static let purchasePrefix = "p_"
    static let grantPrefix = "g_"
    static let subscriptionNulls = SubscriptionRepository.columns.nulls()
    static let purchaseNulls = TransactionRepository.oneTimeColumns.nulls()
    static let namedPurchaseNulls = TransactionRepository.oneTimeColumns.nulls(named: purchasePrefix)
    static let grantNulls = GrantRepository.columns.nulls()
    static let namedGrantNulls = GrantRepository.columns.nulls(named: grantPrefix)

    /// One row's holding, read from its `kind` column on.
    enum Held {
        case subscription(Subscription)
        case purchase(OneTimePurchase)
        case grant(Grant)
    }

    /// The holding of a row whose next cell is `kind`; nil for a customer's row with none.
    static func held(_ cells: inout Cells) throws -> Held? {
        switch try cells.next("kind", String?.self) {
        case "subscription"?:
            return .subscription(try SubscriptionRepository.subscription(&cells))
        case "purchase"?:
            cells.skip(SubscriptionRepository.columns.count)
            cells.prefix = purchasePrefix
            return .purchase(try TransactionRepository.purchase(&cells))
        case "grant"?:
            cells.skip(SubscriptionRepository.columns.count + TransactionRepository.oneTimeColumns.count)
            cells.prefix = grantPrefix
            return .grant(try GrantRepository.grant(&cells))
        case nil:
            return nil
        case let kind?:
            throw DatabaseError.unreadable("a holdings row of unknown kind \(kind)")
        }
    }

    /// One customer's rows as their holdings.
    static func holdings(customer: UUID, _ rows: [Held?]) -> Holdings {
        var subscriptions: [Subscription] = []
        var oneTime: [OneTimePurchase] = []
        var grants: [Grant] = []
        for case let held? in rows {
            switch held {
            case .subscription(let subscription): subscriptions.append(subscription)
            case .purchase(let purchase): oneTime.append(purchase)
            case .grant(let grant): grants.append(grant)
            }
        }
        return Holdings(customer: customer, subscriptions: subscriptions, purchases: oneTime, grants: grants)
    }

    /// Subscription rows; with the grants' columns (NULL) when grant rows follow.
    static func subscriptions(_ schema: String, grants: Bool = false) -> String {
        let columns = SubscriptionRepository.columns.selected
        return """
            SELECT 'subscription' AS kind, \(columns), \(namedPurchaseNulls)\(grants ? ", " + namedGrantNulls : "") FROM \(schema).subscriptions s
            WHERE s.customer = c.id
            UNION ALL
            SELECT 'subscription', \(columns), \(purchaseNulls)\(grants ? ", " + grantNulls : "") FROM \(schema).account_links l
            JOIN \(schema).subscriptions s ON s.app_id = l.app_id AND s.original_transaction_id = l.value
            WHERE l.customer = c.id AND l.kind = 'originalTransactionId' AND s.customer IS DISTINCT FROM c.id
            """
    }

    /// Subscription rows, then rows of every other purchase, then the grants in force.
    static func entitlements(_ schema: String) -> String {
        let columns = TransactionRepository.oneTimeColumns.selected
        return """
            \(subscriptions(schema, grants: true))
            UNION ALL
            SELECT 'purchase', \(subscriptionNulls), \(columns), \(grantNulls) FROM \(schema).transactions t
            WHERE t.customer = c.id AND t.product_type <> 'Auto-Renewable Subscription'
            UNION ALL
            SELECT 'purchase', \(subscriptionNulls), \(columns), \(grantNulls) FROM \(schema).account_links l
            JOIN \(schema).transactions t ON t.app_id = l.app_id AND t.original_transaction_id = l.value
            WHERE l.customer = c.id AND l.kind = 'originalTransactionId' AND t.customer IS DISTINCT FROM c.id
              AND t.product_type <> 'Auto-Renewable Subscription'
            UNION ALL
            SELECT 'grant', \(subscriptionNulls), \(purchaseNulls), \(GrantRepository.columns.selected) FROM \(schema).grants g
            WHERE g.customer = c.id AND g.revoked_at IS NULL AND g.expires_at > now()
            """
    }
}

/// A column a reader takes from a row: what the statement selects, the name the row gives it, and its type
/// (for the typed NULLs a UNION needs). A reader's columns are declared once, and the SELECT list and the
/// NULLs are made from them.
struct Column: Sendable {
    let expression: String
    let name: String
    let type: String

    /// `expression` is named for its last part (`s.app_id` is `app_id`) unless `name` says otherwise.
    init(_ expression: String, _ type: String, as name: String? = nil) {
        self.expression = expression
        self.type = type
        self.name = name ?? String(expression.split(separator: ".").last ?? "")
    }
}

extension [Column] {
    /// `expression AS name, …`
    var selected: String { map { "\($0.expression) AS \($0.name)" }.joined(separator: ", ") }

    /// `NULL::type, …`, each named `prefix` and the column's name when a prefix is given.
    func nulls(named prefix: String? = nil) -> String {
        map { column in prefix.map { "NULL::\(column.type) AS \($0)\(column.name)" } ?? "NULL::\(column.type)" }.joined(separator: ", ")
    }
}

/// A row's cells, read in order, each by the name the reader expects: a cell whose column has another
/// name is an error, so a statement and its reader that disagree fail instead of reading the wrong column.
struct Cells {
    private var iterator: PostgresRow.Iterator
    /// Put before each expected name: a UNION's later parts carry the names its first part gave them.
    var prefix = ""

    init(_ row: PostgresRow) { iterator = row.makeIterator() }

    mutating func next<T: PostgresDecodable>(_ name: String, _ type: T.Type = T.self) throws -> T {
        guard let cell = iterator.next() else { throw DatabaseError.unreadable("a row has no column \(prefix + name) where its reader expects one") }
        guard cell.columnName == prefix + name else { throw DatabaseError.unreadable("column \(cell.columnName) was read as \(prefix + name)") }
        return try cell.decode(T.self)
    }

    mutating func skip(_ count: Int) {
        for _ in 0..<count { _ = iterator.next() }
    }
}
