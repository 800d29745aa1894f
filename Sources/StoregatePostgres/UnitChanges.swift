import Foundation
import Logging
import PostgresNIO
import Storegate
import Synchronization

/// The customers whose holdings (subscriptions, transactions, account links) a tenant unit of work
/// changed: its repositories record them as they write, from the rows the statements return, and this
/// process's observers hear of each customer at once (`HoldingsWrite.writing`).
final class UnitChanges: Sendable {
    let tenant: UUID
    private let observers: WriteObservers?
    private let changed = Mutex(Set<UUID>())
    /// Whether events appended and jobs enqueued in the unit wait for its end (`takeEvents`, `takeJobs`), so
    /// that the numbering row is locked by its last statements only and a batch's jobs cost one statement:
    /// a transactional unit of `Persistence.inTenant`.
    let defersEvents: Bool
    private let events = Mutex<[NewEvent]>([])
    /// Jobs enqueued in the unit, by kind and ref, each due at the earliest time asked: written by its end
    /// with its events, one statement for all (`takeJobs`), in a transactional unit.
    private let jobs = Mutex<[JobKey: Date]>([:])
    /// The tenant's catalog as this unit read it (`.some(nil)`: none), read once per unit: a batch of
    /// notifications asks for it once per purchase. Forgotten when the unit sets it.
    private let catalog = Mutex<Catalog??>(nil)

    struct JobKey: Hashable {
        let kind: Job.Kind
        let ref: String
    }

    /// Without `observers`, the writes are heard by no one in this process (a control unit's work on a
    /// tenant's audit and manifest rows).
    init(tenant: UUID, observers: WriteObservers?, defersEvents: Bool = false) {
        self.tenant = tenant
        self.observers = observers
        self.defersEvents = defersEvents
    }

    func keep(_ appended: [NewEvent]) { events.withLock { $0 += appended } }

    /// The events appended so far, in order, taken.
    func takeEvents() -> [NewEvent] {
        events.withLock { kept in
            let taken = kept
            kept = []
            return taken
        }
    }

    func keep(_ kind: Job.Kind, ref: String, due: Date) {
        jobs.withLock { jobs in
            let key = JobKey(kind: kind, ref: ref)
            jobs[key] = min(jobs[key] ?? due, due)
        }
    }

    /// The jobs enqueued so far, taken.
    func takeJobs() -> [(kind: Job.Kind, ref: String, due: Date)] {
        jobs.withLock { kept in
            let taken = kept.map { (kind: $0.key.kind, ref: $0.key.ref, due: $0.value) }
            kept = [:]
            return taken
        }
    }

    /// The catalog read before in this unit, if it was.
    var knownCatalog: Catalog?? { catalog.withLock { $0 } }

    func know(_ read: Catalog??) { catalog.withLock { $0 = read } }

    var customers: Set<UUID> { changed.withLock { $0 } }

    func holdings(of customer: UUID?) {
        guard let customer, changed.withLock({ $0.insert(customer).inserted }) else { return }
        observers?.tell(.writing(tenant: tenant, customer: customer))
    }

    /// Tells the other processes, on the change feed: `<tenant> <customer>` per customer. Inside a
    /// transaction the notifications go out as it commits, and not at all when it rolls back.
    func announce(on conn: PostgresConnection, logger: Logger) async throws {
        let customers = Array(customers)
        guard !customers.isEmpty else { return }
        _ = try await conn.prepared(
            """
            SELECT pg_notify(\(ChangeFeed.channel), \(tenant.uuidString.lowercased()) || ' ' || c::text) FROM unnest(\(customers)::uuid[]) AS c
            """, logger: logger
        ) { _ in () }
    }
}

/// This process's observers of tenant units' writes to customers' holdings.
final class WriteObservers: Sendable {
    private let observers = Mutex<[@Sendable (HoldingsWrite) -> Void]>([])

    func add(_ observer: @escaping @Sendable (HoldingsWrite) -> Void) { observers.withLock { $0.append(observer) } }

    func tell(_ write: HoldingsWrite) {
        if case .settled(_, let customers) = write, customers.isEmpty { return }
        for observer in observers.withLock({ $0 }) { observer(write) }
    }
}

/// The domain's step at the end of each tenant unit that wrote customers' holdings.
final class UnitEnding: Sendable {
    private let current = Mutex<(@Sendable (any TenantUnit, Set<UUID>) async throws -> Void)?>(nil)

    var step: (@Sendable (any TenantUnit, Set<UUID>) async throws -> Void)? { current.withLock { $0 } }

    func set(_ step: @escaping @Sendable (any TenantUnit, Set<UUID>) async throws -> Void) { current.withLock { $0 = step } }
}
