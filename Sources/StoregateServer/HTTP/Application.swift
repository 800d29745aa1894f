import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import JSONRPC
import Logging
import NIOCore
import NIOSSL
import Prometheus
import ServiceLifecycle
import Storegate
import StoregateConsole
import Synchronization
import UnixSignals

/// Builds the whole HTTP application from configuration: the composition root that `storegate serve`
/// and the tests both call. `services` are long-running parts (the database client) the application runs.
public func buildApplication(
    configuration: ServerConfiguration,
    capabilities: Capabilities,
    metrics: RPCMetrics = RPCMetrics(),
    services: [any Service] = [],
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let engine = RPCEngine(
        registry: StoregateRPC.registry, maxBatchSize: configuration.maxBatchSize, batchConcurrency: configuration.batchConcurrency,
        hooks: RPCHooks(
            unexpectedError: { method, error, call in
                call.logger.error("rpc method failed", metadata: ["rpc.method": .string(method), "error": .string(String(reflecting: error))])
            }))

    let router = Router(context: StoregateRequestContext.self)
    let publicURL = PublicURL(configuration.publicURL)
    RPCController(engine: engine, capabilities: capabilities, publicURL: publicURL, maxBodyBytes: configuration.maxBodyBytes, metrics: metrics)
        .addRoutes(to: router)
    HealthController(capabilities: capabilities, metrics: metrics).addRoutes(to: router)
    IndexController().addRoutes(to: router)
    NotificationController(ingest: capabilities.notifications).addRoutes(to: router)
    RetentionController(rules: capabilities.retentionRules).addRoutes(to: router)
    try ConsoleRoutes<StoregateRequestContext>(capabilities: capabilities).addRoutes(to: router)

    let server: HTTPServerBuilder
    let http1 = HTTP1Channel.Configuration(idleTimeout: TimeAmount(configuration.idleTimeout))
    if let certificatePath = configuration.tlsCertificatePath, let keyPath = configuration.tlsKeyPath {
        let chain = try NIOSSLCertificate.fromPEMFile(certificatePath).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
        server = try .tls(.http1(configuration: http1), tlsConfiguration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
    } else {
        server = .http1(configuration: http1)
    }
    return Application(
        router: router, server: server,
        configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "storegate"),
        services: services + [CacheCoherenceService(coherence: capabilities.coherence)]
            + (configuration.runsJobWorker ? [JobWorkerService(worker: capabilities.worker)] : []),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            let host = ["0.0.0.0", "::"].contains(configuration.host) ? "127.0.0.1" : configuration.host
            publicURL.listening(at: (configuration.tlsCertificatePath == nil ? "http" : "https") + "://\(host):\(port)")
            await onServerRunning(port)
        },
        logger: logger)
}

/// Runs `application` until SIGTERM or SIGINT, then lets requests in flight finish for at most the
/// configured grace period before cancelling them (which closes their database connections).
public func runUntilTerminated(_ application: some ApplicationProtocol, configuration: ServerConfiguration, logger: Logger) async throws {
    var group = ServiceGroupConfiguration(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    group.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
    group.maximumCancellationDuration = .seconds(5)
    try await ServiceGroup(configuration: group).run()
}

/// Runs the job queue worker for the life of the server. A graceful shutdown stops it first (services stop
/// in reverse order, so the database pool is still there): it cancels the jobs in hand and hands every
/// claim back at once, for the other processes to run.
struct JobWorkerService: Service {
    let worker: JobWorker

    func run() async throws {
        await withGracefulShutdownHandler {
            await worker.run()
        } onGracefulShutdown: { [worker] in
            worker.stop()
        }
    }
}

/// Follows other processes' changes for the life of the server, so that its caches never serve what was
/// revoked or replaced (see `CacheCoherence`).
struct CacheCoherenceService: Service {
    let coherence: CacheCoherence

    func run() async throws {
        await cancelWhenGracefulShutdown { await coherence.run() }
    }
}

/// The server's public URL: the configured one, else its own address once it listens.
final class PublicURL: Sendable {
    private let value: Mutex<String>
    private let configured: Bool

    init(_ configured: String?) {
        self.configured = configured != nil
        value = Mutex(configured ?? "http://127.0.0.1:8080")
    }

    var url: String { value.withLock { $0 } }

    func listening(at address: String) {
        if !configured { value.withLock { $0 = address } }
    }
}
