import CoreMetrics
import JSONRPC
import Prometheus

/// Prometheus series for RPC calls, labelled by method and outcome, never by tenant.
public struct RPCMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        self.factory = PrometheusMetricsFactory(registry: registry)
    }

    /// `method` is nil for unknown methods (recorded as `unknown`, so input cannot grow the label set).
    func record(method: String?, error: RPCError?, duration: Duration) {
        let outcome = error.map { String($0.code) } ?? "ok"
        let dimensions = [("method", method ?? "unknown"), ("outcome", outcome)]
        Counter(label: "storegate_rpc_requests_total", dimensions: dimensions, factory: factory).increment()
        Timer(label: "storegate_rpc_duration_seconds", dimensions: dimensions, factory: factory).recordInterval(duration)
    }

    func recordHTTPRejection(status: Int) {
        Counter(label: "storegate_rpc_rejected_total", dimensions: [("status", String(status))], factory: factory).increment()
    }
}

extension Timer {
    func recordInterval(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
