import Crypto
import Foundation
import KeyVault
import Logging

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

    public init(
        firstRetry: Duration = .seconds(5), maxDelay: Duration = .seconds(6 * 3600), retryWindow: Duration = .seconds(3 * 24 * 3600),
        concurrencyPerEndpoint: Int = 8, runBudget: Duration = .seconds(30)
    ) {
        self.firstRetry = firstRetry
        self.maxDelay = maxDelay
        self.retryWindow = retryWindow
        self.concurrencyPerEndpoint = concurrencyPerEndpoint
        self.runBudget = runBudget
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
            let due = try await persistence.inTenant(tenant, .write) { unit in
                try await unit.webhookDeliveries.claim(endpointId: endpointId, limit: policy.concurrencyPerEndpoint, lease: lease)
            }
            if due.isEmpty { break }
            let events = try await persistence.inTenant(tenant, .read) { try await $0.events.find(sequences: due.map(\.eventSequence)) }
            let bySequence = Dictionary(uniqueKeysWithValues: events.map { ($0.sequence, $0) })
            try await withThrowingTaskGroup(of: Void.self) { group in
                for delivery in due {
                    guard let event = bySequence[delivery.eventSequence] else { continue }
                    group.addTask { try await send(delivery, event: event, to: endpoint, keys: keys, tenant: tenant) }
                }
                try await group.waitForAll()
            }
        }
        try await persistence.inTenant(tenant, .read) { try await $0.webhookDeliveries.settle(job, endpointId: endpointId) }
    }

    private func send(_ delivery: DueDelivery, event: Event, to endpoint: WebhookEndpoint, keys: [SymmetricKey], tenant: Tenant) async throws {
        let body = Data(try event.json().utf8)
        let attempt = await sender.send(url: endpoint.url, messageId: event.displayId, body: body, keys: keys, number: delivery.attempts + 1)
        let outcome: WebhookDelivery.Status
        let next: Date?
        if attempt.succeeded {
            (outcome, next) = (.delivered, nil)
        } else if let retry = policy.next(afterAttempts: delivery.attempts + 1, retryFrom: delivery.retryFrom) {
            (outcome, next) = (.pending, retry)
        } else {
            (outcome, next) = (.failed, nil)
            logger.warning(
                "webhook delivery dead-lettered",
                metadata: ["tenant": .string(tenant.slug), "endpoint": .string(endpoint.displayId), "event": .string(event.displayId)])
        }
        try await persistence.inTenant(tenant, .read) { unit in
            try await unit.webhookDeliveries.record(attempt, deliveryId: delivery.id, endpointId: endpoint.id, outcome: outcome, next: next)
        }
        observe(outcome, attempt, Date().timeIntervalSince(event.createdAt))
    }
}
