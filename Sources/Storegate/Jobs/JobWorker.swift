import Foundation
import Logging
import Synchronization

/// Runs the durable job queue: claims due jobs (leased, so that any number of Storegate processes may
/// run a worker against the same database), runs each, and completes it or reschedules it with backoff
/// (Apple's `Retry-After` where given).
///
/// A claim's lease is short (`lease`, 10 s by default) and renewed every quarter of it while the worker
/// runs the job, so a process that dies leaves its jobs to the others within seconds, and a job that runs
/// long is not claimed twice. Stopping (a graceful shutdown) cancels the jobs in hand and hands every
/// claim back at once, due now, so other processes take them within their poll interval; cancelling `run`
/// does the same. Handing a job to another worker never applies a notification twice: applying is one
/// transaction that locks it and skips it once processed; a cancelled one is rolled back.
public final class JobWorker: Sendable {
    let persistence: any Persistence
    let processor: NotificationProcessor
    let refunds: RefundService
    let webhooks: WebhookDispatcher
    let reconciliation: Reconciliation
    let dataRetention: DataRetentionService
    let logger: Logger
    let pollInterval: Duration
    /// How long a claim lasts unless renewed: a worker that dies leaves its jobs to others after this.
    let lease: Duration
    /// This worker's name on its claims.
    let id = UUID()
    /// The ids of the jobs this worker claimed and has not settled: their leases are renewed.
    private let held = Mutex(Set<Int64>())
    let signal: JobSignal
    private let stopped = Atomic(false)
    private let paused = Atomic(false)
    /// Whether the last claim reached the queue: an outage is warned of once, not at every claim (every
    /// 100 ms while long jobs run), and its end is told once.
    private let queueReachable = Atomic(true)
    /// The claimed jobs being run now, cancelled when the worker stops.
    private let inHand = Mutex<Task<Int, Never>?>(nil)
    /// Tenants of recent jobs: a batch holds many jobs of few tenants. A tenant deleted is forgotten
    /// when that is heard (see `CacheCoherence`); until then its jobs fail (its schema is gone).
    private let tenants: ExpiringCache<UUID, Tenant>

    /// After this many attempts a notification that cannot be applied is marked processed with its error.
    static let maxNotificationAttempts = 12

    init(
        persistence: any Persistence, processor: NotificationProcessor, refunds: RefundService, webhooks: WebhookDispatcher,
        reconciliation: Reconciliation, dataRetention: DataRetentionService, logger: Logger, pollInterval: Duration = .seconds(1),
        lease: Duration = .seconds(10), coherence: CacheCoherence,
        signal: JobSignal
    ) {
        self.reconciliation = reconciliation
        self.dataRetention = dataRetention
        self.persistence = persistence
        self.tenants = ExpiringCache(ttl: .seconds(5), coherence: coherence) { id, _ in id }
        self.processor = processor
        self.refunds = refunds
        self.webhooks = webhooks
        self.logger = logger
        self.pollInterval = pollInterval
        self.lease = lease
        self.signal = signal
    }

    /// Asks the worker to look for due jobs now.
    public func poke() { signal.poke() }

    /// Asks `run` to return, claiming no more: the jobs in hand are cancelled and handed back at once.
    public func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        signal.finish()
        inHand.withLock { $0?.cancel() }
    }

    private var isStopped: Bool { stopped.load(ordering: .sequentiallyConsistent) }

    /// While paused, the worker claims no job (what it holds it finishes); resumed, it looks at once.
    /// For measuring what the queue's producers cost alone (`storegate-bench`).
    public func pause(_ pause: Bool) {
        paused.store(pause, ordering: .sequentiallyConsistent)
        if !pause { poke() }
    }

    /// Works until stopped or cancelled, renewing the leases of the jobs it holds, and adding the
    /// notification sweep of every swept app that has none as it starts and every sweep interval (the
    /// server's, 15 minutes when the server sweeps none: a tenant's manifest may).
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [every = reconciliation.settings.sweepEvery ?? .seconds(15 * 60)] in
                while !Task.isCancelled {
                    await self.scheduleSweeps()
                    await self.scheduleDataRetention()
                    try? await Task.sleep(for: every)
                }
            }
            group.addTask { [signal, pollInterval] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: pollInterval)
                    if !signal.poke() { return }
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: self.lease / 4)
                    await self.renewLeases()
                }
            }
            for await _ in signal.wakeups {
                if Task.isCancelled || isStopped { break }
                while !Task.isCancelled, !isStopped, await runDueUnlessStopped() > 0 {}
            }
            group.cancelAll()
        }
    }

    /// Adds the sweep job of each app of an active tenant that is swept (by its manifest, else by the
    /// server's setting) and has none; returns how many were added.
    @discardableResult public func scheduleSweeps() async -> Int {
        do {
            let byDefault = reconciliation.settings.sweepEvery != nil
            let added = try await persistence.control(.read) { try await $0.jobs.scheduleNotificationSweeps(byDefault: byDefault) }
            if added > 0 {
                logger.info("notification sweeps scheduled", metadata: ["sweeps": .stringConvertible(added)])
                poke()
            }
            return added
        } catch {
            logger.warning("notification sweeps not scheduled", metadata: ["error": .string("\(error)")])
            return 0
        }
    }

    /// Adds the data-retention job of each active tenant that has none; returns how many were added.
    @discardableResult public func scheduleDataRetention() async -> Int {
        do {
            let added = try await persistence.control(.read) { try await $0.jobs.scheduleDataRetention() }
            if added > 0 { poke() }
            return added
        } catch {
            logger.warning("data retention not scheduled", metadata: ["error": .string("\(error)")])
            return 0
        }
    }

    /// `runDue` in a task that `stop` cancels.
    private func runDueUnlessStopped() async -> Int {
        let task = Task { await runDue() }
        inHand.withLock { $0 = task }
        if isStopped { task.cancel() }
        let ran = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        inHand.withLock { $0 = nil }
        return ran
    }

    private func renewLeases() async {
        let ids = held.withLock { Array($0) }
        guard !ids.isEmpty else { return }
        do {
            try await persistence.control(.read) { try await $0.jobs.renew(ids, worker: id, lease: lease) }
        } catch {
            logger.warning("job leases not renewed", metadata: ["jobs": .stringConvertible(ids.count), "error": .string("\(error)")])
        }
    }

    /// Hands back the jobs among `ids` this worker still holds, due at once. Runs even when the caller
    /// was cancelled (a shutdown past its grace period): the jobs cut short go back now, not after the lease.
    private func handBack(_ ids: [Int64]) async {
        let (persistence, id, logger) = (persistence, id, logger)
        await Task {
            do {
                try await persistence.control(.read) { try await $0.jobs.release(ids, worker: id) }
            } catch {
                logger.warning("jobs not handed back; their leases will run out", metadata: ["error": .string("\(error)")])
            }
        }.value
    }

    /// How many batches and other jobs run at once.
    static let concurrency = 16

    private enum Work {
        case batch([Job])
        case job(Job)
    }

    /// Notifications of one tenant applied together (see `NotificationProcessor.process(tenant:notificationUUIDs:)`).
    /// A tenant's batches wait for each other (its event numbering is locked until commit), so a burst of
    /// one tenant is applied faster in fewer, larger batches: each costs about the same ~17 statements and
    /// one commit (16 gave 800/s applied while posted, 64 gives 915 to 928/s).
    static let batchSize = 64

    /// Claims and runs the jobs due now, and those that fall due while it runs, until none is; returns how
    /// many it ran. Notifications of one tenant are applied in batches, the batches and the other jobs side
    /// by side, at most `concurrency` at a time; a claim takes two batches' worth (a tenant's second batch
    /// reads and verifies while its first holds the event numbering).
    ///
    /// The next claim is made once the batches of the last one are applied (what arrived meanwhile makes
    /// the next batches, large under load), not once every job of it is done: an endpoint's deliveries run
    /// for up to 30 s while events keep coming, and notifications claimed in rounds waited for them (a burst
    /// with a webhook endpoint was applied at 168/s in some runs, 650 to 760/s in others). While only such
    /// jobs run, the queue is looked at every `lookAgain`.
    @discardableResult
    public func runDue(limit: Int = 128) async -> Int {
        var claimedIds: [Int64] = []
        await withTaskGroup(of: (ids: [Int64], batch: Bool)?.self) { group in
            var waiting: [Work] = []
            var running = 0
            var batches = 0
            var looking = false
            var drained = false
            while true {
                let stopping = isStopped || Task.isCancelled
                if waiting.isEmpty, batches == 0, !drained, !stopping, running < Self.concurrency {
                    let claimed = await claim(limit: limit)
                    claimedIds += claimed.map(\.id)
                    waiting = Self.work(claimed)
                    drained = claimed.isEmpty
                }
                // Stopping: what has not started is handed back below, with what was cut short.
                while !stopping, running < Self.concurrency, !waiting.isEmpty {
                    let next = waiting.removeFirst()
                    running += 1
                    if case .batch = next { batches += 1 }
                    group.addTask {
                        switch next {
                        case .batch(let jobs):
                            self.webhooks.applying.enter()
                            await self.execute(batch: jobs)
                            self.webhooks.applying.leave()
                            return (jobs.map(\.id), true)
                        case .job(let job):
                            await self.execute(job)
                            return ([job.id], false)
                        }
                    }
                }
                if running == 0 { break }
                if drained, !looking, !stopping {
                    looking = true
                    group.addTask {
                        try? await Task.sleep(for: Self.lookAgain)
                        return nil
                    }
                }
                switch await group.next() {
                case .some(.some(let settled)):
                    running -= 1
                    if settled.batch { batches -= 1 }
                    held.withLock { $0.subtract(settled.ids) }
                    drained = false
                case .some(.none):
                    looking = false
                    drained = false
                case .none:
                    running = 0
                }
            }
            group.cancelAll()
        }
        if isStopped || Task.isCancelled { await handBack(claimedIds) }
        held.withLock { $0.subtract(claimedIds) }
        return claimedIds.count
    }

    /// How often the queue is looked at while only long jobs run.
    static let lookAgain = Duration.milliseconds(100)

    /// Due jobs claimed for this worker (held, so their leases are renewed); none while paused or when the
    /// queue cannot be reached.
    private func claim(limit: Int) async -> [Job] {
        guard !paused.load(ordering: .sequentiallyConsistent) else { return [] }
        do {
            let claimed = try await persistence.control(.read) { try await $0.jobs.claim(limit: limit, batch: Self.batchSize, lease: lease, worker: id) }
            held.withLock { $0.formUnion(claimed.map(\.id)) }
            if !queueReachable.exchange(true, ordering: .relaxed) { logger.notice("job queue reachable again") }
            return claimed
        } catch {
            let level: Logger.Level = queueReachable.exchange(false, ordering: .relaxed) ? .warning : .debug
            logger.log(level: level, "job queue unavailable", metadata: ["error": .string("\(error)")])
            return []
        }
    }

    /// Claimed jobs as units of work: each tenant's notifications in batches, every other job alone.
    private static func work(_ claimed: [Job]) -> [Work] {
        let notifications = Dictionary(grouping: claimed.filter { $0.kind == .processNotification }, by: \.tenantId).values
        let batches = notifications.flatMap { jobs in
            stride(from: 0, to: jobs.count, by: batchSize).map { Array(jobs[$0..<min($0 + batchSize, jobs.count)]) }
        }
        return batches.map { Work.batch($0) } + claimed.filter { $0.kind != .processNotification }.map { Work.job($0) }
    }

    /// What running a job decided.
    private enum Outcome {
        /// Done: the worker completes the job now.
        case done
        /// The job's own work completed it, in the same transaction: nothing is left to do.
        case completedWithItsWork
        case retry(at: Date, reason: String)
        /// A recurring job, due again then.
        case reschedule(at: Date)
    }

    private func execute(_ job: Job) async {
        do {
            switch try await run(job) {
            case .done: try await persistence.control(.read) { try await $0.jobs.complete(job) }
            case .completedWithItsWork: break
            case .retry(let at, let reason): try await persistence.control(.read) { try await $0.jobs.retry(job, at: at, error: reason) }
            case .reschedule(let at): try await persistence.control(.read) { try await $0.jobs.reschedule(job, at: at) }
            }
        } catch  where isStopped || Task.isCancelled {
            // Cut short by a stop: not a failure of the job, which is handed back (see `runDue`).
        } catch {
            await failed(job, error)
        }
    }

    /// Applies one tenant's notifications together; when the batch fails as a whole (nothing of it is then
    /// kept), each is applied on its own, so that one notification that cannot be applied holds up no other.
    private func execute(batch jobs: [Job]) async {
        let uuids = jobs.compactMap { UUID(uuidString: $0.ref) }
        guard jobs.count > 1, uuids.count == jobs.count, let tenant = try? await tenant(id: jobs[0].tenantId) else {
            for job in jobs { await execute(job) }
            return
        }
        do {
            let later = try await processor.process(tenant: tenant, notificationUUIDs: uuids)
            for (job, uuid) in zip(jobs, uuids) {
                if let error = later[uuid] { await failed(job, error) }
            }
        } catch  where isStopped || Task.isCancelled {
            // Stopping: the batch is handed back whole (see `runDue`), not tried one by one.
            logger.info("notification batch not applied while stopping", metadata: ["jobs": .stringConvertible(jobs.count), "error": .string("\(error)")])
        } catch {
            logger.info("notification batch failed; applying one by one", metadata: ["jobs": .stringConvertible(jobs.count), "error": .string("\(error)")])
            for job in jobs { await execute(job) }
        }
    }

    /// Retries a failed job with exponential backoff; a notification that keeps failing is given up on.
    private func failed(_ job: Job, _ error: any Error) async {
        logger.warning(
            "job failed",
            metadata: ["job.kind": .string(job.kind.rawValue), "job.attempts": .stringConvertible(job.attempts), "error": .string("\(error)")])
        if job.kind == .processNotification, job.attempts >= Self.maxNotificationAttempts, await giveUp(job, error: error) { return }
        // A delivery job is claimed again and again over its endpoint's life: its own attempts say little.
        let delay = job.kind == .deliverWebhooks ? 5 : min(pow(2, Double(job.attempts)) * 5, 3600)
        try? await persistence.control(.read) { try await $0.jobs.retry(job, at: Date() + delay, error: "\(error)") }
    }

    private func run(_ job: Job) async throws -> Outcome {
        guard let tenant = try await tenant(id: job.tenantId) else { return .done }
        // A reference that is not what its kind names (an id, for the kinds keyed by one) has nothing to do.
        let id = UUID(uuidString: job.ref)
        switch job.kind {
        case .sweepNotifications:
            return try await reconciliation.sweep(tenant: tenant, ref: job.ref).map { .reschedule(at: $0) } ?? .done
        case .dataRetention:
            // A run stops at its budget and goes on at once as a new run, so the worker's other jobs pass between.
            let run = try await dataRetention.run(tenant: tenant)
            let every = TimeInterval(dataRetention.settings.every.components.seconds)
            return .reschedule(at: run.more ? Date() : RecurringPhase.next(after: Date(), every: every, key: tenant.id.uuidString))
        case .checkRenewal:
            return try await reconciliation.checkRenewal(tenant: tenant, ref: job.ref).map { .reschedule(at: $0) } ?? .done
        case .processNotification:
            guard let id else { return .done }
            // Applying a notification, or finding it applied, completes its job.
            if let error = try await processor.process(tenant: tenant, notificationUUIDs: [id])[id] { throw error }
            return .completedWithItsWork
        case .sendConsumption:
            guard let id else { return .done }
            switch try await refunds.answer(tenantId: tenant.id, requestId: id) {
            case .done: return .done
            case .retry(let at, let reason): return .retry(at: at, reason: reason)
            }
        case .deliverWebhooks:
            guard id != nil else { return .done }
            try await webhooks.run(job, tenant: tenant)
            return .completedWithItsWork
        }
    }

    private func tenant(id: UUID) async throws -> Tenant? {
        try await tenants.value(for: id, loadIfFound: { try await persistence.tenant(id: id) })
    }

    /// Marks a notification that keeps failing as processed with its error, which completes its job;
    /// returns whether that was done (otherwise the job is retried as usual).
    private func giveUp(_ job: Job, error: any Error) async -> Bool {
        guard let uuid = UUID(uuidString: job.ref), let tenant = try? await persistence.tenant(id: job.tenantId) else { return false }
        do {
            try await processor.giveUp(tenant: tenant, notificationUUID: uuid, error: "\(error)")
            return true
        } catch {
            return false
        }
    }
}
