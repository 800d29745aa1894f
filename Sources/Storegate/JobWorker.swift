import Foundation
import Logging
import Synchronization

/// Runs the durable job queue: claims due jobs (leased, so that any number of Storegate processes may
/// run a worker against the same database), runs each, and completes it or reschedules it with backoff
/// (Apple's `Retry-After` where given).
public final class JobWorker: Sendable {
    let persistence: any Persistence
    let processor: NotificationProcessor
    let refunds: RefundService
    let webhooks: WebhookDispatcher
    let logger: Logger
    let pollInterval: Duration
    /// How long a claimed job stays claimed: a worker that dies leaves its jobs to others after this.
    let lease: Duration
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private let stopped = Atomic(false)
    /// Tenants of recent jobs: a batch holds many jobs of few tenants. A tenant deleted is forgotten
    /// when that is heard (see `CacheCoherence`); until then its jobs fail (its schema is gone).
    private let tenants: ExpiringCache<UUID, Tenant>

    /// After this many attempts a notification that cannot be applied is marked processed with its error.
    static let maxNotificationAttempts = 12

    init(
        persistence: any Persistence, processor: NotificationProcessor, refunds: RefundService, webhooks: WebhookDispatcher, logger: Logger,
        pollInterval: Duration = .seconds(1), lease: Duration = .seconds(300), coherence: CacheCoherence
    ) {
        self.persistence = persistence
        self.tenants = ExpiringCache(ttl: .seconds(5), coherence: coherence) { id, _ in id }
        self.processor = processor
        self.refunds = refunds
        self.webhooks = webhooks
        self.logger = logger
        self.pollInterval = pollInterval
        self.lease = lease
        (wakeups, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks the worker to look for due jobs now.
    public func poke() { wake.yield() }

    /// Asks `run` to return once the jobs it is running are done, claiming no more: a graceful shutdown.
    /// (Cancelling `run` instead cuts the running jobs short; their leases bring them back later.)
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        wake.finish()
    }

    private var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Works until stopped or cancelled.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [wake, pollInterval] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: pollInterval)
                    if case .terminated = wake.yield() { return }
                }
            }
            for await _ in wakeups {
                if Task.isCancelled || isStopped { break }
                while !Task.isCancelled, !isStopped, await runDue() > 0 {}
            }
            group.cancelAll()
        }
    }

    /// How many batches and other jobs run at once.
    static let concurrency = 16

    private enum Work {
        case batch([Job])
        case job(Job)
    }

    /// Notifications of one tenant applied together (see `NotificationProcessor.process(tenant:notificationUUIDs:)`).
    static let batchSize = 16

    /// Claims and runs the jobs due now; returns how many it ran. Notifications of one tenant are applied
    /// in batches, the batches and the other jobs side by side.
    @discardableResult
    public func runDue(limit: Int = 64) async -> Int {
        let claimed: [Job]
        do {
            claimed = try await persistence.control(.read) { try await $0.jobs.claim(limit: limit, lease: lease) }
        } catch {
            logger.warning("job queue unavailable", metadata: ["error": .string("\(error)")])
            return 0
        }
        let notifications = Dictionary(grouping: claimed.filter { $0.kind == .processNotification }, by: \.tenantId).values
        let batches = notifications.flatMap { jobs in
            stride(from: 0, to: jobs.count, by: Self.batchSize).map { Array(jobs[$0..<min($0 + Self.batchSize, jobs.count)]) }
        }
        // At most `concurrency` at a time: each holds a connection, and a consumption answer calls Apple.
        let work = batches.map { Work.batch($0) } + claimed.filter { $0.kind != .processNotification }.map { Work.job($0) }
        await withTaskGroup(of: Void.self) { group in
            for (index, next) in work.enumerated() {
                if index >= Self.concurrency { await group.next() }
                group.addTask {
                    switch next {
                    case .batch(let jobs):
                        self.webhooks.applying.enter()
                        await self.execute(batch: jobs)
                        self.webhooks.applying.leave()
                    case .job(let job): await self.execute(job)
                    }
                }
            }
        }
        return claimed.count
    }

    /// What running a job decided.
    private enum Outcome {
        case complete
        /// The job's own work completed it, in the same transaction.
        case completed
        case retry(at: Date, reason: String)
    }

    private func execute(_ job: Job) async {
        do {
            switch try await run(job) {
            case .complete: try await persistence.control(.read) { try await $0.jobs.complete(job) }
            case .completed: break
            case .retry(let at, let reason): try await persistence.control(.read) { try await $0.jobs.retry(job, at: at, error: reason) }
            }
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
        guard let tenant = try await tenant(id: job.tenantId), let id = UUID(uuidString: job.ref) else { return .complete }
        switch job.kind {
        case .processNotification:
            // Applying a notification, or finding it applied, completes its job.
            if let error = try await processor.process(tenant: tenant, notificationUUIDs: [id])[id] { throw error }
            return .completed
        case .sendConsumption:
            switch try await refunds.answer(tenantId: tenant.id, requestId: id) {
            case .done: return .complete
            case .retry(let at, let reason): return .retry(at: at, reason: reason)
            }
        case .deliverWebhooks:
            try await webhooks.run(job, tenant: tenant)
            return .completed
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
