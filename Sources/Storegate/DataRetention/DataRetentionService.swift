import Foundation

/// How the data-retention job runs: how often each tenant's windows are enforced, how big a batch is, and
/// how long one run may go on before it hands the worker back (it continues at once, as a new run).
public struct DataRetentionSettings: Sendable {
    /// How long after a run that left nothing older than the windows the next one starts.
    public var every: Duration
    /// Rows per statement (each its own short transaction).
    public var batchSize: Int
    /// How long one run deletes before it is rescheduled due now, so the worker's other jobs go between.
    public var budget: Duration
    /// A rest after each full batch, so that the deletions take a share of the database's time and not all
    /// of it (on a small machine they otherwise compete with reads for the cores). With the defaults a
    /// million rows go in about 70 s on the 2-core development machine, at a third of the tail latency
    /// added without the rest (deploy/FIGURES.md).
    public var pause: Duration
    /// Told of each batch: its kind and how many rows went (for metrics).
    public var observe: @Sendable (DataRetention.Kind, Int) -> Void

    public init(
        every: Duration = .seconds(3600), batchSize: Int = 1000, budget: Duration = .seconds(1), pause: Duration = .milliseconds(50),
        observe: @escaping @Sendable (DataRetention.Kind, Int) -> Void = { _, _ in }
    ) {
        self.every = every
        self.batchSize = batchSize
        self.budget = budget
        self.pause = pause
        self.observe = observe
    }
}

/// A tenant's data-retention windows (`dataRetention.get`, `dataRetention.set`, the manifest's
/// `dataRetention`) and the job that deletes what is older than them.
public struct DataRetentionService: Sendable {
    let persistence: any Persistence
    public let settings: DataRetentionSettings

    public init(persistence: any Persistence, settings: DataRetentionSettings = DataRetentionSettings()) {
        self.persistence = persistence
        self.settings = settings
    }

    /// One kind's window as the API and the console show it, with what the job deleted of it so far.
    public struct Window: Sendable, Equatable {
        public let kind: DataRetention.Kind
        public let minutes: Int
        public let isDefault: Bool
        public let defaultMinutes: Int
        public let deleted: DataRetention.Deleted?
    }

    /// The tenant's windows in force, every kind in the order of `DataRetention.Kind`: read from storage, not
    /// from `tenant` (a caller's may come from a cache a moment behind a change).
    public func windows(tenant: Tenant) async throws -> [Window] {
        let stored = try await persistence.control(.read) { try await $0.tenants.find(id: tenant.id) } ?? tenant
        let deleted = try await persistence.inTenant(tenant, .read) { try await $0.dataRetention.deleted() }
        return Self.windows(stored.dataRetention, deleted: deleted)
    }

    static func windows(_ retention: DataRetention, deleted: [DataRetention.Kind: DataRetention.Deleted]) -> [Window] {
        DataRetention.Kind.allCases.map { kind in
            Window(
                kind: kind, minutes: retention.minutes(kind), isDefault: retention.isDefault(kind), defaultMinutes: DataRetention.defaults[kind]!,
                deleted: deleted[kind])
        }
    }

    /// Sets the windows given (the others stay as they are), audited; answers the windows in force.
    public func set(tenant: Tenant, _ changes: [DataRetention.Kind: Int], actor: Actor) async throws -> [Window] {
        // Checked before the tenant's row is locked: a bad window names its field without waiting.
        _ = try tenant.dataRetention.setting(changes)
        let stored = try await persistence.control { control in
            guard var current = try await control.tenants.find(slug: tenant.slug, forUpdate: true), current.id == tenant.id else {
                throw StoregateError.notFound(field: "tenant", value: tenant.slug)
            }
            let next = try current.dataRetention.setting(changes)
            if next != current.dataRetention {
                try await control.tenants.setDataRetention(current, next)
                try await control.inTenant(current).audit(actor, "dataRetention.set", Self.auditDetail(changes))
                current.dataRetention = next
            }
            return current.dataRetention
        }
        let deleted = try await persistence.inTenant(tenant, .read) { try await $0.dataRetention.deleted() }
        return Self.windows(stored, deleted: deleted)
    }

    static func auditDetail(_ changes: [DataRetention.Kind: Int]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: changes.map { ($0.key.rawValue + "Minutes", String($0.value)) })
    }

    /// What one run deleted, by kind, and whether rows older than the windows remain (its budget ran out).
    public struct Run: Sendable, Equatable {
        public var deleted: [DataRetention.Kind: Int] = [:]
        public var more = false
    }

    /// Deletes what is older than the tenant's windows, a batch at a time, each batch its own short
    /// transaction, until nothing is left or the run's budget is spent. Deliveries go before events (an
    /// event's deliveries go with it in any case).
    public func run(tenant: Tenant, now: Date = Date()) async throws -> Run {
        let clock = ContinuousClock()
        let deadline = clock.now + settings.budget
        var run = Run()
        let kinds: [DataRetention.Kind] = [.notificationPayloads, .webhookDeliveries, .events, .auditEntries, .consoleSessions]
        for kind in kinds {
            let before = tenant.dataRetention.cutoff(kind, now: now)
            while true {
                let count = try await persistence.inTenant(tenant, .write) { unit in
                    let count = try await Self.deleteBatch(kind, before: before, limit: settings.batchSize, in: unit.dataRetention)
                    if count > 0 { try await unit.dataRetention.recordDeleted(kind, count: count, before: before) }
                    return count
                }
                if count > 0 {
                    run.deleted[kind, default: 0] += count
                    settings.observe(kind, count)
                }
                if count < settings.batchSize { break }
                if clock.now >= deadline {
                    run.more = true
                    return run
                }
                if settings.pause > .zero { try await Task.sleep(for: settings.pause) }
            }
        }
        return run
    }

    static func deleteBatch(_ kind: DataRetention.Kind, before: Date, limit: Int, in store: any DataRetentionStore) async throws -> Int {
        switch kind {
        case .notificationPayloads: try await store.dropNotificationPayloads(receivedBefore: before, limit: limit)
        case .events: try await store.deleteEvents(createdBefore: before, limit: limit)
        case .webhookDeliveries: try await store.deleteWebhookDeliveries(finishedBefore: before, limit: limit)
        case .auditEntries: try await store.deleteAuditEntries(writtenBefore: before, limit: limit)
        case .consoleSessions: try await store.deleteConsoleSessions(endedBefore: before, limit: limit)
        }
    }
}
