import Hummingbird
import Logging
import NIOCore
import Prometheus
import Storegate

/// `/healthz` (the process answers), `/readyz` (database reachable, migrations current), `/metrics`.
struct HealthController: Sendable {
    let capabilities: Capabilities
    let metrics: RPCMetrics

    func addRoutes(to router: Router<StoregateRequestContext>) {
        router.get("/healthz") { _, _ in json(.ok, #"{"status":"ok"}"#) }
        router.get("/readyz") { _, context in
            do {
                guard try await capabilities.isReady() else { return json(.serviceUnavailable, #"{"status":"migrations pending"}"#) }
                return json(.ok, #"{"status":"ready"}"#)
            } catch {
                context.logger.warning("readiness check failed", metadata: ["error": .string(String(describing: error))])
                return json(.serviceUnavailable, #"{"status":"database unreachable"}"#)
            }
        }
        router.get("/metrics") { _, _ in
            metrics.recordCaches(capabilities)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer())))
        }
    }

    private func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
