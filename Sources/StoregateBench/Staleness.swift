import AppStoreServer
import Foundation
import KeyVault
import Logging
import PostgresNIO
import Storegate
import StoregatePostgres

/// How stale another process reads: a second `Capabilities` with a pool, a holdings cache and a change feed of
/// its own stands for another Storegate process. Each round it reads a customer's status (so it holds it),
/// this process commits a change to the customer's subscription, and the other reads again until it sees
/// the change: the time from the commit to that read.
enum Staleness {
    static func measure(
        writer: Capabilities, tenant: Tenant, appId: UUID, customer: Customer, vault: KeyVault, configuration: DatabaseConfiguration,
        line: (String, String) -> Void
    ) async throws {
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let client = DatabaseClient(configuration: configuration, backgroundLogger: logger)
        let other = try Capabilities(persistence: PostgresPersistence(client: client, logger: logger), vault: vault, logger: logger, authCacheTTL: .seconds(5))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            group.addTask { await other.coherence.run() }
            defer { group.cancelAll() }
            while !other.coherence.isFollowing { try await Task.sleep(for: .milliseconds(10)) }
            @Sendable func latest() async throws -> [String] {
                try await other.subscriptions.status(tenant: tenant, customerId: customer.customerId, bundleId: nil, transactionId: nil, refresh: false)
                    .map(\.latestTransactionId)
            }
            var delays: [Double] = []
            for round in 0..<300 {
                _ = try await latest()
                let id = String(7_100_000_000_000_000 + round)
                _ = try await writer.persistence.inTenant(tenant) { unit in
                    try await unit.subscriptions.upsert(
                        Subscription(
                            appId: appId, environment: .sandbox, originalTransactionId: "7000000000000001", subscriptionGroupIdentifier: "group.stale",
                            customer: customer.id, status: .active, productId: "com.example.monthly", latestTransactionId: id, purchaseDate: Date(),
                            expiresDate: Date() + 86_400, autoRenewStatus: true, autoRenewProductId: nil, inBillingRetry: false, gracePeriodExpiresDate: nil,
                            offerType: nil, offerIdentifier: nil, price: nil, currency: nil, signedDate: Date()))
                }
                let committed = ContinuousClock.now
                while try await !latest().contains(id) { try await Task.sleep(for: .microseconds(100)) }
                delays.append((ContinuousClock.now - committed) / .milliseconds(1))
            }
            delays.sort()
            // What one of those reads costs when it goes to the database: the part of the delay that is not the feed's.
            var loads: [Double] = []
            for _ in 0..<50 {
                let start = ContinuousClock.now
                _ = try await other.persistence.inTenant(tenant, .read) { try await $0.customers.holdings(customerId: customer.customerId, purchases: false) }
                loads.append((ContinuousClock.now - start) / .milliseconds(1))
            }
            loads.sort()
            line(
                "another process reads a committed change (300 rounds)",
                String(
                    format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms after the commit", delays[delays.count / 2], delays[delays.count * 99 / 100],
                    delays.last ?? .nan))
            line("  a status read from the database in that process (50 reads)", String(format: "p50 %.2f ms, max %.2f ms", loads[25], loads.last ?? .nan))
        }
    }
}
