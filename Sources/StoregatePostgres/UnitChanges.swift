import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The customers whose holdings (subscriptions, transactions, account links) a tenant unit of work
/// changed: its repositories record them as they write, from the rows the statements return.
final class UnitChanges: Sendable {
    private let changed = Mutex(Set<UUID>())

    var customers: Set<UUID> { changed.withLock { $0 } }

    func holdings(of customer: UUID?) {
        guard let customer else { return }
        changed.withLock { _ = $0.insert(customer) }
    }

    /// Tells the other processes, on the change feed: `<tenant> <customer>` per customer. Inside a
    /// transaction the notifications go out as it commits, and not at all when it rolls back.
    func announce(tenant: UUID, on conn: PostgresConnection, logger: Logger) async throws {
        let customers = Array(customers)
        guard !customers.isEmpty else { return }
        _ = try await conn.hot(
            """
            SELECT pg_notify(\(ChangeFeed.channel), \(tenant.uuidString.lowercased()) || ' ' || c::text) FROM unnest(\(customers)::uuid[]) AS c
            """, logger: logger
        ) { _ in () }
    }
}

/// This process's observers of what tenant units changed, told as each commits.
final class CommitObservers: Sendable {
    private let observers = Mutex<[@Sendable (UUID, Set<UUID>) -> Void]>([])

    func add(_ observer: @escaping @Sendable (UUID, Set<UUID>) -> Void) { observers.withLock { $0.append(observer) } }

    func tell(_ tenant: UUID, _ customers: Set<UUID>) {
        guard !customers.isEmpty else { return }
        for observer in observers.withLock({ $0 }) { observer(tenant, customers) }
    }
}
