import AppStoreServer
import Foundation
import PostgresNIO
import Storegate
import Testing

@testable import StoregatePostgres

/// The queries behind `subscriptions.status` and `entitlements.list` by customer: a subscription or purchase
/// is the customer's when it was stored with the customer or when its originalTransactionId is linked to
/// the customer. Each is found once (also when both hold), and another customer's never; the one-statement
/// read of the hot path (`holdings`) finds exactly the same.
@Suite struct CustomerQueriesTests {
    @Test func bothPathsEachOnceAndNoOneElses() async throws {
        try await TestDatabase.with { capabilities, _ in
            let tenant = try await capabilities.tenants.create(slug: "queries", name: "Queries", actor: Actor("test"))
            let app = try await capabilities.apps.add(
                tenant: tenant, bundleId: "com.example.queries", appAppleId: 1, environments: ["Sandbox"], actor: Actor("test"))
            let appId = app.app.id

            try await capabilities.persistence.inTenant(tenant) { unit in
                let ada = try await unit.customers.ensure(customerId: "ada").customer.id
                let bob = try await unit.customers.ensure(customerId: "bob").customer.id
                func link(_ original: String, to customer: UUID) async throws {
                    try await unit.customers.setLink(appId: appId, kind: .originalTransactionId, value: original, customer: customer)
                }
                // original → (stored customer, linked customer)
                let owners: [(String, UUID?, UUID?)] = [
                    ("1001", ada, nil),  // stored with ada
                    ("1002", nil, ada),  // linked to ada only
                    ("1003", ada, ada),  // both: once
                    ("1004", bob, nil),  // bob's
                    ("1005", nil, bob),  // linked to bob
                    ("1006", nil, nil),  // nobody's
                ]
                for (i, (original, stored, linked)) in owners.enumerated() {
                    try await unit.subscriptions.upsert(
                        Subscription(
                            appId: appId, environment: .sandbox, originalTransactionId: original, subscriptionGroupIdentifier: "group.\(original)",
                            customer: stored,
                            status: .active, productId: "com.example.monthly", latestTransactionId: original, purchaseDate: Date(),
                            expiresDate: Date() + 86_400,
                            autoRenewStatus: true, autoRenewProductId: nil, inBillingRetry: false, gracePeriodExpiresDate: nil, offerType: nil,
                            offerIdentifier: nil,
                            price: 990, currency: "USD", signedDate: Date()))
                    let purchase = "5\(original)"  // a one-time purchase in the same family of ids
                    try await unit.transactions.upsert(
                        StoredTransaction(
                            appId: appId, environment: .sandbox, transactionId: purchase, originalTransactionId: purchase, appTransactionId: nil,
                            customer: stored,
                            productId: "com.example.coins", productType: .consumable, purchaseDate: Date(timeIntervalSince1970: Double(1_700_000_000 + i)),
                            expiresDate: nil, revocationDate: nil, appAccountToken: nil, signedDate: Date(), signedTransaction: "x.y.z",
                            payload: #"{"quantity":2}"#))
                    if let linked {
                        try await link(original, to: linked)
                        try await link(purchase, to: linked)
                    }
                }

                let adas = try await unit.subscriptions.list(customer: ada)
                #expect(adas.map(\.originalTransactionId) == ["1001", "1002", "1003"])
                #expect(try await unit.subscriptions.list(customer: bob).map(\.originalTransactionId) == ["1004", "1005"])

                let purchases = try await unit.transactions.oneTimePurchases(customer: ada)
                #expect(purchases.map(\.transactionId) == ["51001", "51002", "51003"], "in purchase order, each once")
                #expect(purchases.allSatisfy { $0.quantity == 2 })
                #expect(try await unit.transactions.oneTimePurchases(customer: bob).map(\.transactionId) == ["51004", "51005"])

                // The one-statement read of the hot path finds the same, in the same order.
                let holdings = try #require(try await unit.customers.holdings(customerId: "ada", purchases: true))
                #expect(holdings.customer == ada)
                #expect(holdings.subscriptions.map(\.originalTransactionId) == ["1001", "1002", "1003"])
                #expect(holdings.subscriptions.map(\.subscriptionGroupIdentifier) == ["group.1001", "group.1002", "group.1003"])
                #expect(holdings.subscriptions.allSatisfy { $0.price == 990 && $0.currency == "USD" && $0.status == .active })
                #expect(holdings.purchases == purchases)
                let bobs = try #require(try await unit.customers.holdings(customerId: "bob", purchases: false))
                #expect(bobs.subscriptions.map(\.originalTransactionId) == ["1004", "1005"])
                #expect(bobs.purchases.isEmpty, "not asked for")
                let cy = try await unit.customers.ensure(customerId: "cy").customer.id
                let nothing = try #require(try await unit.customers.holdings(customerId: "cy", purchases: true))
                #expect(nothing.customer == cy && nothing.subscriptions.isEmpty && nothing.purchases.isEmpty)
                #expect(try await unit.customers.holdings(customerId: "nobody", purchases: true) == nil)

                // Repeated on one connection, the read is prepared there (from its third use) and answers the same.
                for _ in 0..<5 {
                    let again = try #require(try await unit.customers.holdings(customerId: "ada", purchases: true))
                    #expect(again.subscriptions.map(\.originalTransactionId) == ["1001", "1002", "1003"])
                    #expect(again.subscriptions.map(\.renewal) == holdings.subscriptions.map(\.renewal))
                    #expect(again.purchases == purchases)
                    #expect(try await unit.customers.holdings(customerId: "nobody", purchases: true) == nil)
                }
            }
            let prepared = try await capabilities.persistence.inTenant(tenant, .read) { unit in
                for _ in 0..<3 { _ = try await unit.customers.holdings(customerId: "bob", purchases: false) }
                let postgres = try #require(unit as? PostgresTenantUnit)
                let onServer = try await postgres.conn.first(
                    "SELECT count(*)::integer FROM pg_prepared_statements", as: Int.self, logger: postgres.logger)
                return (postgres.preparedCount, onServer)
            }
            #expect(prepared.0 >= 1)
            #expect(prepared.1 == prepared.0, "PostgreSQL holds what Storegate counts")
        }
    }
}
