import CoreMetrics
import JSONRPC
import Prometheus
import Storegate
import Synchronization

/// Prometheus series for RPC calls, labelled by method and outcome, never by tenant.
public struct RPCMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    /// Each series' counter and timer, made once: asking the registry on every call showed on the signing path.
    /// Bounded: methods are the registered ones (or `unknown`) and outcomes the error codes.
    private let series = SeriesCache()

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        self.factory = PrometheusMetricsFactory(registry: registry)
    }

    /// `method` is nil for unknown methods (recorded as `unknown`, so input cannot grow the label set).
    func record(method: String?, error: RPCError?, duration: Duration) {
        let key = SeriesCache.Key(method: method ?? "unknown", outcome: error.map { String($0.code) } ?? "ok")
        let (counter, timer) = series.get(key) {
            let dimensions = [("method", key.method), ("outcome", key.outcome)]
            return (
                Counter(label: "storegate_rpc_requests_total", dimensions: dimensions, factory: factory),
                Timer(label: "storegate_rpc_duration_seconds", dimensions: dimensions, factory: factory)
            )
        }
        counter.increment()
        timer.recordInterval(duration)
    }

    /// For `WebhookSettings.observe`: deliveries by outcome (`delivered`, `retrying`, `dead_lettered`),
    /// each attempt's latency, and the event's age when it was attempted (how long events wait in the queue).
    public var webhookObserver: @Sendable (WebhookDelivery.Status, WebhookDelivery.Attempt, Double) -> Void {
        let factory = factory
        let counters = Dictionary(
            uniqueKeysWithValues: [(WebhookDelivery.Status.delivered, "delivered"), (.pending, "retrying"), (.failed, "dead_lettered")].map {
                ($0.0, Counter(label: "storegate_webhook_deliveries_total", dimensions: [("outcome", $0.1)], factory: factory))
            })
        let latency = CoreMetrics.Timer(label: "storegate_webhook_attempt_duration_seconds", factory: factory)
        let age = CoreMetrics.Timer(label: "storegate_webhook_event_age_seconds", factory: factory)
        return { outcome, attempt, eventAge in
            counters[outcome]?.increment()
            latency.recordMilliseconds(attempt.latencyMilliseconds)
            age.recordSeconds(eventAge)
        }
    }

    /// For `ReconciliationSettings.observe`: what sweeps and renewal checks found, applied and failed on,
    /// by kind (`sweep`, `renewal_check`).
    public var reconciliationObserver: @Sendable (Reconciliation.Run) -> Void {
        let factory = factory
        let counters = Dictionary(
            uniqueKeysWithValues: [Reconciliation.Run.Kind.sweep, .renewalCheck].flatMap { kind in
                ["found", "applied", "failed"].map { outcome in
                    (
                        "\(kind.rawValue)/\(outcome)",
                        Counter(label: "storegate_reconciliation_total", dimensions: [("kind", kind.rawValue), ("outcome", outcome)], factory: factory)
                    )
                }
            })
        return { run in
            counters["\(run.kind.rawValue)/found"]?.increment(by: run.found)
            counters["\(run.kind.rawValue)/applied"]?.increment(by: run.applied)
            counters["\(run.kind.rawValue)/failed"]?.increment(by: run.failed)
        }
    }

    /// For `DataRetentionSettings.observe`: rows the data-retention job deleted (payloads dropped), by kind.
    public var dataRetentionObserver: @Sendable (DataRetention.Kind, Int) -> Void {
        let factory = factory
        let counters = Dictionary(
            uniqueKeysWithValues: DataRetention.Kind.allCases.map {
                ($0, Counter(label: "storegate_data_retention_deleted_total", dimensions: [("kind", $0.rawValue)], factory: factory))
            })
        return { kind, count in counters[kind]?.increment(by: count) }
    }

    /// For `HoldingsCache.Settings.observe`: holdings reads that hit or missed the cache, entries evicted.
    public var holdingsObserver: @Sendable (HoldingsCache.Outcome) -> Void {
        let factory = factory
        let counters = Dictionary(
            uniqueKeysWithValues: [HoldingsCache.Outcome.hit, .miss, .eviction].map {
                ($0, Counter(label: "storegate_holdings_cache_total", dimensions: [("outcome", $0.rawValue)], factory: factory))
            })
        return { outcome in counters[outcome]?.increment() }
    }

    /// Set as `/metrics` is read: whether the caches follow other processes' changes, and how much the
    /// holdings cache holds.
    func recordCaches(_ capabilities: Capabilities) {
        Gauge(label: "storegate_cache_coherence_following", factory: factory).record(capabilities.coherence.isFollowing ? 1 : 0)
        let usage = capabilities.holdings.usage
        Gauge(label: "storegate_holdings_cache_entries", factory: factory).record(usage.entries)
        Gauge(label: "storegate_holdings_cache_bytes", factory: factory).record(usage.bytes)
    }

    func recordHTTPRejection(status: Int) {
        Counter(label: "storegate_rpc_rejected_total", dimensions: [("status", String(status))], factory: factory).increment()
    }
}

final class SeriesCache: Sendable {
    struct Key: Hashable {
        let method: String
        let outcome: String
    }

    private let entries = Mutex([Key: (CoreMetrics.Counter, CoreMetrics.Timer)]())

    func get(_ key: Key, make: () -> (CoreMetrics.Counter, CoreMetrics.Timer)) -> (CoreMetrics.Counter, CoreMetrics.Timer) {
        if let found = entries.withLock({ $0[key] }) { return found }
        let made = make()
        return entries.withLock { entries in
            if let raced = entries[key] { return raced }
            entries[key] = made
            return made
        }
    }
}

extension Timer {
    func recordInterval(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
