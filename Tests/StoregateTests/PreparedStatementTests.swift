import AppStoreServer
import Foundation
import PostgresNIO
import Storegate
import Testing

@testable import StoregatePostgres

/// Every prepared statement with a nullable parameter, prepared on a connection by calls that bind NULL there
/// and then run with values (and the other way round), on one connection: a prepared statement's types
/// are declared, never taken from the values of the call that happened to prepare it.
@Suite struct PreparedStatementTests {
    /// The statements that bind optional values: a notification stored, and received into the inbox, a
    /// transaction and a subscription upserted, a purchase's owner looked up.
    struct Calls {
        let notification: @Sendable (any TenantUnit, _ values: Bool) async throws -> Void
        let received: @Sendable (any TenantUnit, _ values: Bool) async throws -> Void
        let transaction: @Sendable (any TenantUnit, _ values: Bool) async throws -> Void
        let subscription: @Sendable (any TenantUnit, _ values: Bool) async throws -> Void
        let owner: @Sendable (any TenantUnit, _ values: Bool) async throws -> Void

        var all: [(String, @Sendable (any TenantUnit, Bool) async throws -> Void)] {
            [
                ("notifications.insert", notification), ("inbox.receive", received),
                ("transactions.upsert", transaction), ("subscriptions.upsert", subscription), ("customers.owner", owner),
            ]
        }

        init(appId: UUID) {
            let stored = { @Sendable (values: Bool) in
                StoredNotification(
                    notificationUUID: UUID(), appId: appId, environment: .sandbox, notificationType: .subscribed,
                    subtype: values ? .initialBuy : nil, signedDate: values ? Date() : nil, signedPayload: "x.y.z", source: .webhook)
            }
            notification = { unit, values in _ = try await unit.notifications.insert(stored(values), processingDue: Date()) }
            received = { unit, values in
                // The inbox is the control schema's; here on the tenant unit's connection, so that it is counted there.
                let postgres = try #require(unit as? PostgresTenantUnit)
                _ = try await NotificationInboxRepository(conn: postgres.conn, logger: postgres.logger).receive(
                    stored(values), tenantId: unit.tenant.id, processingDue: Date())
            }
            transaction = { unit, values in
                try await unit.transactions.upsert(
                    StoredTransaction(
                        appId: appId, environment: .sandbox, transactionId: UUID().uuidString, originalTransactionId: "1",
                        appTransactionId: values ? "704" : nil, customer: nil, productId: "com.example.monthly", productType: .autoRenewableSubscription,
                        purchaseDate: Date(), expiresDate: values ? Date() + 86400 : nil, revocationDate: values ? Date() : nil,
                        appAccountToken: values ? UUID() : nil, signedDate: values ? Date() : nil, signedTransaction: "x.y.z", payload: "{}"))
            }
            subscription = { unit, values in
                try await unit.subscriptions.upsert(
                    Subscription(
                        appId: appId, environment: .sandbox, originalTransactionId: UUID().uuidString,
                        subscriptionGroupIdentifier: values ? "group" : nil, customer: nil, status: .active, productId: "com.example.monthly",
                        latestTransactionId: "1", purchaseDate: values ? Date() : nil, expiresDate: values ? Date() + 86400 : nil,
                        autoRenewStatus: values ? true : nil, autoRenewProductId: values ? "com.example.monthly" : nil, inBillingRetry: false,
                        gracePeriodExpiresDate: values ? Date() : nil, offerType: values ? .offerCode : nil, offerIdentifier: values ? "SPRING" : nil,
                        price: values ? 9990 : nil, currency: values ? "EUR" : nil, signedDate: Date(), offerPeriod: values ? "P1M" : nil))
            }
            owner = { unit, values in
                _ = try await unit.customers.owner(
                    appId: appId, originalTransactionId: "1", appAccountToken: values ? UUID() : nil, appTransactionId: values ? "704" : nil)
            }
        }
    }

    /// Some seventy round trips in one unit: beside the whole suite and stress-ng each waited up to half a
    /// second for the test process's two cooperative threads, past the tests' usual 30-second unit.
    static let deadlines = DatabaseDeadlines(checkout: .seconds(15), unit: .seconds(120), readiness: .seconds(5))

    @Test(arguments: [false, true]) func aStatementPreparedWithNullsRunsWithValuesAndTheReverse(valuesFirst: Bool) async throws {
        try await TestDatabase.with(deadlines: Self.deadlines) { capabilities, _ in
            let made = try await Fixtures.tenant(capabilities, slug: "typed", bundleId: "com.example.typed")
            let calls = Calls(appId: made.appId)
            try await capabilities.persistence.inTenant(made.tenant.tenant, .read) { unit in
                let postgres = try #require(unit as? PostgresTenantUnit)
                for (name, call) in calls.all {
                    let before = postgres.preparedCount
                    // The third use on this connection prepares the statement, with this kind of values.
                    for _ in 0..<PreparedStatements.shared.threshold { try await call(unit, valuesFirst) }
                    #expect(postgres.preparedCount == before + 1, "\(name) is prepared on the connection")
                    for _ in 0..<2 {
                        try await call(unit, !valuesFirst)
                        try await call(unit, valuesFirst)
                    }
                    #expect(postgres.preparedCount == before + 1, "\(name) still runs prepared, and was prepared once")
                }
            }
        }
    }

    /// A statement that fails as a prepared statement is forgotten: its next use prepares it afresh under
    /// another name, and the connection serves on.
    @Test func aFailedPreparedStatementIsPreparedAfresh() async throws {
        try await TestDatabase.with { capabilities, _ in
            let made = try await Fixtures.tenant(capabilities, slug: "afresh", bundleId: "com.example.afresh")
            try await capabilities.persistence.inTenant(made.tenant.tenant, .read) { unit in
                let postgres = try #require(unit as? PostgresTenantUnit)
                for _ in 0..<3 { try await unit.transactions.upsert(DatabaseFaultTests.transaction(made.appId, payload: "{}")) }
                #expect(postgres.preparedCount == 1)
                await #expect(throws: PSQLError.self) {
                    try await unit.transactions.upsert(DatabaseFaultTests.transaction(made.appId, payload: "not json"))
                }
                #expect(postgres.preparedCount == 0, "the failed statement is forgotten")
                for _ in 0..<3 { try await unit.transactions.upsert(DatabaseFaultTests.transaction(made.appId, payload: "{}")) }
                #expect(postgres.preparedCount == 1, "and prepared again")
            }
        }
    }

    /// A connection holds at most `capacity` prepared statements: past that, the least recently used is
    /// deallocated on the server too.
    @Test func preparedStatementsAreBoundedPerConnection() async throws {
        try await TestDatabase.with { capabilities, _ in
            let made = try await Fixtures.tenant(capabilities, slug: "bounded", bundleId: "com.example.bounded")
            let statements = PreparedStatements(threshold: 1, capacity: 3)
            try await capabilities.persistence.inTenant(made.tenant.tenant, .read) { unit in
                let conn = try #require(unit as? PostgresTenantUnit).conn
                func prepared() async throws -> [String] {
                    try await conn.column(
                        "SELECT name FROM pg_prepared_statements ORDER BY prepare_time", as: String.self, logger: capabilities.postgres.logger)
                }
                let before = try await prepared()
                for n in 1...5 {
                    let rows = try await conn.prepared("SELECT \(n) + \(unescaped: String(n))", logger: capabilities.postgres.logger, statements: statements) {
                        try $0.decode(Int.self)
                    }
                    #expect(rows == [2 * n])
                }
                // The first two were deallocated as the fourth and fifth were prepared.
                #expect(statements.preparedCount(on: conn) == 3)
                #expect(try await prepared().count - before.count == 3)
            }
        }
    }
}
