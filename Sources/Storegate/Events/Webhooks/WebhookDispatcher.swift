import Crypto
import Foundation
import KeyVault
import Logging
import Synchronization

/// How many notification batches this process is applying at the moment.
public final class ApplyingCount: Sendable {
    private let count = Atomic(0)
    public init() {}
    func enter() { count.add(1, ordering: .relaxed) }
    func leave() { count.subtract(1, ordering: .relaxed) }
    var isBusy: Bool { count.load(ordering: .relaxed) > 0 }
}

/// How deliveries are retried and bounded.
public struct WebhookDeliveryPolicy: Sendable {
    /// The first retry's delay; each next one doubles, up to `maxDelay`, each scaled by a random factor
    /// between 0.5 and 1 (jitter, so that failed deliveries do not come back together).
    public var firstRetry: Duration
    public var maxDelay: Duration
    /// How long a delivery is retried before it is dead-lettered and its endpoint marked failing.
    public var retryWindow: Duration
    /// Deliveries in flight to one endpoint at a time, across every worker.
    public var concurrencyPerEndpoint: Int
    /// How long one run of an endpoint's job sends before it yields to other jobs.
    public var runBudget: Duration
    /// How long a batch of deliveries waits, at most, while this process applies notifications.
    public var yieldLimit: Duration

    public init(
        firstRetry: Duration = .seconds(5), maxDelay: Duration = .seconds(6 * 3600), retryWindow: Duration = .seconds(3 * 24 * 3600),
        concurrencyPerEndpoint: Int = 8, runBudget: Duration = .seconds(30), yieldLimit: Duration = .milliseconds(100)
    ) {
        self.firstRetry = firstRetry
        self.maxDelay = maxDelay
        self.retryWindow = retryWindow
        self.concurrencyPerEndpoint = concurrencyPerEndpoint
        self.runBudget = runBudget
        self.yieldLimit = yieldLimit
    }

    /// When to try again after `attempts` failed attempts; nil once the window from `retryFrom` is over.
    func next(afterAttempts attempts: Int, retryFrom: Date, now: Date = Date()) -> Date? {
        let windowEnd = retryFrom + retryWindow.seconds
        guard now < windowEnd else { return nil }
        let exponential = min(firstRetry.seconds * pow(2, Double(max(0, attempts - 1))), maxDelay.seconds)
        return min(now + exponential * Double.random(in: 0.5...1), windowEnd)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Sends an endpoint's due deliveries: the job `deliver_webhooks` of the durable queue. Each delivery
/// is leased while it is sent (a worker that dies leaves it to be sent again: at least once), every
/// attempt is recorded, and a delivery that fails is retried with backoff until its window ends.
public struct WebhookDispatcher: Sendable {
    let persistence: any Persistence
    let vault: KeyVault
    let sender: WebhookSender
    let policy: WebhookDeliveryPolicy
    /// A claimed delivery whose worker died is sent again after this long: the job queue's lease.
    let lease: Duration
    let logger: Logger
    /// Told of every attempt: the outcome it led to, and for a delivery the event's age.
    let observe: @Sendable (WebhookDelivery.Status, WebhookDelivery.Attempt, TimeInterval) -> Void
    /// Notification batches this process is applying now (the job worker counts them).
    let applying = ApplyingCount()

    /// Runs one endpoint's job: sends what is due until nothing is or the run's budget is spent, then
    /// moves the job to the next due delivery (or removes it). Settles its own job.
    func run(_ job: Job, tenant: Tenant) async throws {
        guard let endpointId = UUID(uuidString: job.ref),
            let (endpoint, keys) = try await WebhookService.endpointWithKeys(endpointId, tenant: tenant, persistence: persistence, vault: vault)
        else {
            try await persistence.control(.read) { try await $0.jobs.complete(job) }
            return
        }
        let clock = ContinuousClock()
        let deadline = clock.now + policy.runBudget
        while clock.now < deadline, !Task.isCancelled {
            let (due, events) = try await persistence.inTenant(tenant, .write) { unit in
                let due = try await unit.webhookDeliveries.claim(endpointId: endpointId, limit: policy.concurrencyPerEndpoint, lease: lease)
                return (due, due.isEmpty ? [] : try await unit.events.find(sequences: due.map(\.eventSequence)))
            }
            if due.isEmpty { break }
            await yieldToNotifications()
            let bySequence = Dictionary(uniqueKeysWithValues: events.map { ($0.sequence, $0) })
            // Sent side by side; recorded together, in one statement.
            let results = try await withThrowingTaskGroup(of: (DeliveryResult, Event).self) { group in
                for delivery in due {
                    guard let event = bySequence[delivery.eventSequence] else { continue }
                    group.addTask { (try await send(delivery, event: event, to: endpoint, keys: keys, tenant: tenant), event) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // One transaction: a delivery dead-lettered and its endpoint marked failing are seen together.
            try await persistence.inTenant(tenant, .write) { try await $0.webhookDeliveries.record(results.map(\.0), endpointId: endpointId) }
            for (result, event) in results { observe(result.outcome, result.attempt, Date().timeIntervalSince(event.createdAt)) }
        }
        try await persistence.inTenant(tenant, .read) { try await $0.webhookDeliveries.settle(job, endpointId: endpointId) }
    }

    /// Applying Apple's notifications comes first: while this process applies any, a batch of deliveries
    /// waits for them, up to `policy.yieldLimit` (so deliveries still go out under sustained load).
    private func yieldToNotifications() async {
        let clock = ContinuousClock()
        let until = clock.now + policy.yieldLimit
        while applying.isBusy, clock.now < until { try? await Task.sleep(for: .milliseconds(5)) }
    }

    /// One attempt, and what follows from it.
    private func send(_ delivery: DueDelivery, event: Event, to endpoint: WebhookEndpoint, keys: [SymmetricKey], tenant: Tenant) async throws -> DeliveryResult
    {
        let body = Data(try event.json().utf8)
        let attempt = await sender.send(url: endpoint.url, messageId: event.displayId, body: body, keys: keys, number: delivery.attempts + 1)
        if attempt.succeeded { return DeliveryResult(deliveryId: delivery.id, attempt: attempt, outcome: .delivered, next: nil) }
        if let retry = policy.next(afterAttempts: delivery.attempts + 1, retryFrom: delivery.retryFrom) {
            return DeliveryResult(deliveryId: delivery.id, attempt: attempt, outcome: .pending, next: retry)
        }
        logger.warning(
            "webhook delivery dead-lettered",
            metadata: ["tenant": .string(tenant.slug), "endpoint": .string(endpoint.displayId), "event": .string(event.displayId)])
        return DeliveryResult(deliveryId: delivery.id, attempt: attempt, outcome: .failed, next: nil)
    }
}
