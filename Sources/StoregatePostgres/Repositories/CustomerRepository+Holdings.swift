import Foundation
import PostgresNIO
import Storegate

/// A customer's holdings in one statement, so the read every app launch makes costs one round trip: the
/// customer, their subscriptions (stored with them or linked to them by `originalTransactionId`) and,
/// when asked, their other purchases. Rows of both kinds share one column list, the other kind's
/// columns NULL; a customer holding nothing is one row with no kind. Each path skips what the other
/// finds (UNION ALL, no sort of wide rows to remove duplicates). Prepared once it repeats on a connection.
extension CustomerRepository {
    func holdings(customerId: String, purchases: Bool) async throws -> Holdings? {
        let rows = try await scope.hot(
            """
            SELECT c.id, h.* FROM \(unescaped: s).customers c
            LEFT JOIN LATERAL (\(unescaped: purchases ? HoldingsSQL.entitlements(s) : HoldingsSQL.subscriptions(s))) h ON true
            WHERE c.customer_id = \(customerId)
            ORDER BY h.kind, h.app_id, h.subscription_group_identifier, h.signed_date DESC, h.p_purchase_date
            """
        ) { row -> (UUID, Held?) in
            var cells = Cells(row)
            let customer: UUID = try cells.next()
            switch try cells.next(String?.self) {
            case "subscription"?:
                return (customer, .subscription(try SubscriptionRepository.subscription(&cells)))
            case "purchase"?:
                cells.skip(SubscriptionRepository.typedColumns.count)
                return (customer, .purchase(try TransactionRepository.purchase(&cells)))
            case nil:
                return (customer, nil)
            case let kind?:
                throw DatabaseError.unreadable("a holdings row of unknown kind \(kind)")
            }
        }
        guard let customer = rows.first?.0 else { return nil }
        var subscriptions: [Subscription] = []
        var oneTime: [OneTimePurchase] = []
        for case (_, let held?) in rows {
            switch held {
            case .subscription(let subscription): subscriptions.append(subscription)
            case .purchase(let purchase): oneTime.append(purchase)
            }
        }
        return Holdings(customer: customer, subscriptions: subscriptions, purchases: oneTime)
    }

    private enum Held {
        case subscription(Subscription)
        case purchase(OneTimePurchase)
    }
}

/// The statement's parts, which differ only in the schema name.
enum HoldingsSQL {
    static let subscriptionNulls = SubscriptionRepository.typedColumns.map { "NULL::\($0.type)" }.joined(separator: ", ")
    static let purchaseNulls = TransactionRepository.oneTimeTypedColumns.map { "NULL::\($0.type)" }.joined(separator: ", ")
    /// The same, named `p_` and the column's name (`p_purchase_date`): a UNION takes its names from its first part.
    static let namedPurchaseNulls = TransactionRepository.oneTimeTypedColumns.map { column in
        let name = column.name.split(separator: " ").last.flatMap { $0.split(separator: ".").last } ?? ""
        return "NULL::\(column.type) AS p_\(name)"
    }.joined(separator: ", ")

    /// Subscription rows.
    static func subscriptions(_ s: String) -> String {
        let columns = SubscriptionRepository.columns
        return """
            SELECT 'subscription' AS kind, \(columns), \(namedPurchaseNulls) FROM \(s).subscriptions s WHERE s.customer = c.id
            UNION ALL
            SELECT 'subscription', \(columns), \(purchaseNulls) FROM \(s).account_links l
            JOIN \(s).subscriptions s ON s.app_id = l.app_id AND s.original_transaction_id = l.value
            WHERE l.customer = c.id AND l.kind = 'originalTransactionId' AND s.customer IS DISTINCT FROM c.id
            """
    }

    /// Subscription rows, then rows of every other purchase.
    static func entitlements(_ s: String) -> String {
        let columns = TransactionRepository.oneTimeColumns
        return """
            \(subscriptions(s))
            UNION ALL
            SELECT 'purchase', \(subscriptionNulls), \(columns) FROM \(s).transactions t
            WHERE t.customer = c.id AND t.product_type <> 'Auto-Renewable Subscription'
            UNION ALL
            SELECT 'purchase', \(subscriptionNulls), \(columns) FROM \(s).account_links l
            JOIN \(s).transactions t ON t.app_id = l.app_id AND t.original_transaction_id = l.value
            WHERE l.customer = c.id AND l.kind = 'originalTransactionId' AND t.customer IS DISTINCT FROM c.id
              AND t.product_type <> 'Auto-Renewable Subscription'
            """
    }
}

/// A row's cells, read in order: for rows whose columns come in parts.
struct Cells {
    private var iterator: PostgresRow.Iterator

    init(_ row: PostgresRow) { iterator = row.makeIterator() }

    mutating func next<T: PostgresDecodable>(_ type: T.Type = T.self) throws -> T {
        guard let cell = iterator.next() else { throw DatabaseError.unreadable("a row has fewer columns than its reader expects") }
        return try cell.decode(T.self)
    }

    mutating func skip(_ count: Int) {
        for _ in 0..<count { _ = iterator.next() }
    }
}
