import Foundation
import Logging
import StoregatePostgres

/// Runs the durable job queue: claims due jobs (`FOR UPDATE SKIP LOCKED`, leased), runs each, and
/// deletes it or reschedules it with backoff (Apple's `Retry-After` where given). Any number of
/// Storegate processes may run a worker against the same database.
public final class JobWorker: Sendable {
    let database: Database
    let jobs: JobQueue
    let processor: NotificationProcessor
    let refunds: RefundService
    let logger: Logger
    let pollInterval: Duration
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    /// After this many attempts a notification that cannot be applied is marked processed with its error.
    static let maxNotificationAttempts = 12

    init(database: Database, processor: NotificationProcessor, refunds: RefundService, logger: Logger, pollInterval: Duration = .seconds(1)) {
        self.database = database
        self.jobs = JobQueue(logger: logger)
        self.processor = processor
        self.refunds = refunds
        self.logger = logger
        self.pollInterval = pollInterval
        (wakeups, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks the worker to look for due jobs now.
    public func poke() { wake.yield() }

    /// Works until cancelled.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [wake, pollInterval] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: pollInterval)
                    wake.yield()
                }
            }
            for await _ in wakeups {
                if Task.isCancelled { break }
                while !Task.isCancelled, await runDue() > 0 {}
            }
            group.cancelAll()
        }
    }

    /// Claims and runs the jobs due now; returns how many it ran.
    @discardableResult
    public func runDue(limit: Int = 16) async -> Int {
        let claimed: [Job]
        do {
            claimed = try await database.withConnection { try await jobs.claim(limit: limit, lease: .seconds(300), on: $0) }
        } catch {
            logger.warning("job queue unavailable", metadata: ["error": .string("\(error)")])
            return 0
        }
        await withTaskGroup(of: Void.self) { group in
            for job in claimed { group.addTask { await self.execute(job) } }
        }
        return claimed.count
    }

    private func execute(_ job: Job) async {
        do {
            switch job.kind {
            case .processNotification:
                guard let uuid = UUID(uuidString: job.ref) else { return try await complete(job) }
                try await processor.process(tenantId: job.tenantId, notificationUUID: uuid)
                try await complete(job)
            case .sendConsumption:
                guard let id = UUID(uuidString: job.ref) else { return try await complete(job) }
                switch try await refunds.answer(tenantId: job.tenantId, requestId: id) {
                case .done: try await complete(job)
                case .retry(let at, let reason): try await database.withConnection { try await jobs.retry(job, at: at, error: reason, on: $0) }
                }
            }
        } catch {
            let delay = min(pow(2, Double(job.attempts)) * 5, 3600)
            logger.warning("job failed", metadata: ["job.kind": .string(job.kind.rawValue), "job.attempts": .stringConvertible(job.attempts), "error": .string("\(error)")])
            if job.kind == .processNotification, job.attempts >= Self.maxNotificationAttempts, let uuid = UUID(uuidString: job.ref) {
                try? await processor.giveUp(tenantId: job.tenantId, notificationUUID: uuid, error: "\(error)")
            }
            try? await database.withConnection { try await jobs.retry(job, at: Date() + delay, error: "\(error)", on: $0) }
        }
    }

    private func complete(_ job: Job) async throws {
        try await database.withConnection { try await jobs.complete(job, on: $0) }
    }
}

extension NotificationProcessor {
    /// Marks a notification that keeps failing as processed, with its error, and drops its job.
    func giveUp(tenantId: UUID, notificationUUID: UUID, error: String) async throws {
        try await database.transaction { conn in
            guard let tenant = try await repositories.tenants.find(id: tenantId, on: conn) else { return }
            try await notifications.markProcessed(notificationUUID, error: error, in: tenant.schema, on: conn)
            try await jobs.complete(tenantId: tenantId, kind: .processNotification, ref: notificationUUID.uuidString, on: conn)
        }
    }
}
