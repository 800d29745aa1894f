import AppStoreServer
import ArgumentParser
import AsyncHTTPClient
import Foundation
import Hummingbird
import KeyVault
import Logging
import Storegate
import StoregatePostgres
import StoregateServer
import UnixSignals
import X509

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the JSON-RPC server (POST /rpc, /healthz, /readyz, /metrics).")

    @Option(help: "Address to listen on (STOREGATE_HOST).") var host = ProcessInfo.processInfo.environment["STOREGATE_HOST"] ?? "127.0.0.1"
    @Option(help: "Port to listen on; 0 picks a free one (STOREGATE_PORT).") var port = Int(ProcessInfo.processInfo.environment["STOREGATE_PORT"] ?? "") ?? 8080
    @Option(name: .customLong("tls-cert"), help: "PEM certificate chain: serve HTTPS directly (STOREGATE_TLS_CERT).")
    var tlsCertOption: String?
    @Option(name: .customLong("tls-key"), help: "PEM private key for --tls-cert (STOREGATE_TLS_KEY).")
    var tlsKeyOption: String?
    var tlsCert: String? { tlsCertOption ?? ProcessInfo.processInfo.environment["STOREGATE_TLS_CERT"] }
    var tlsKey: String? { tlsKeyOption ?? ProcessInfo.processInfo.environment["STOREGATE_TLS_KEY"] }
    @Option(help: "Largest request body in bytes.") var maxBodyBytes = 1 << 20
    @Option(help: "Most requests in one JSON-RPC batch.") var maxBatchSize = 100
    @Option(help: "How many calls of one batch run at once.") var batchConcurrency = 32
    @Option(help: "Database connections in all, the tenant pools' among them.") var databaseConnections = 20
    @Option(help: "Pools tenants' work is spread over, each tenant always in the same one (0: tenants share the control schema's pool).")
    var tenantPools = 4
    @Option(help: "Database connections in each tenant pool.") var tenantPoolConnections = 4
    @Option(help: "A tenant pool's connections are replaced by new ones after meeting this many tenants (bounds PostgreSQL's memory).")
    var tenantPoolTenants = 250
    @Option(help: "A tenant pool's connections are replaced by new ones after this many seconds.") var tenantPoolLifetime = 3_600.0
    @Option(help: "Customers' holdings cached in memory, at most (entries; a customer read with purchases and without is two).")
    var holdingsCacheEntries = 100_000
    @Option(help: "Memory the holdings cache may use, at most, in MiB (estimated).") var holdingsCacheMegabytes = 128
    @Option(help: "Minutes between sweeps of each app's notification history for deliveries that failed (0: no scheduled sweeps).")
    var sweepMinutes = 15.0
    @Option(help: "Minutes after a subscription's expiry, with no renewal heard of, before Apple is asked for its status.")
    var renewalCheckMinutes = 5.0
    @Option(help: "Seconds before an idle HTTP connection (or one still sending its headers) is closed.") var idleTimeout = 15.0
    @Option(help: "Seconds SIGTERM waits for requests in flight before cancelling them.") var shutdownGracePeriod = 10.0
    @Option(
        name: .customLong("trust-root"),
        help: "Trust this root certificate (DER or PEM) for Apple-signed data instead of Apple Root CA - G3, e.g. the simulator's. Development only.")
    var trustRoots: [String] = []
    @Flag(help: "Accept Xcode and LocalTesting data, which the App Store does not sign. Development only.") var allowUnsignedEnvironments = false
    @Flag(help: "Do not check certificate revocation with Apple's OCSP responders (offline development only).") var noOcsp = false
    @Flag(help: "Accept http:// webhook endpoints and ones on loopback or private addresses (a receiver on this machine). Development only.")
    var allowPrivateWebhookUrls = false

    func validate() throws {
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        guard batchConcurrency >= 1 else { throw ValidationError("--batch-concurrency must be at least 1") }
        guard idleTimeout > 0 else { throw ValidationError("--idle-timeout must be more than 0 seconds") }
        guard shutdownGracePeriod >= 0 else { throw ValidationError("--shutdown-grace-period must be 0 seconds or more") }
        guard sweepMinutes >= 0, renewalCheckMinutes >= 0 else { throw ValidationError("--sweep-minutes and --renewal-check-minutes must be 0 or more") }
        guard tenantPools >= 0, tenantPoolConnections >= 1, tenantPoolTenants >= 1, tenantPoolLifetime > 0 else {
            throw ValidationError("--tenant-pools must be 0 or more; --tenant-pool-connections, --tenant-pool-tenants and --tenant-pool-lifetime more than 0")
        }
        guard controlConnections >= 2 else {
            throw ValidationError(
                "--database-connections (\(databaseConnections)) must leave at least 2 for the control schema beside --tenant-pools × --tenant-pool-connections (\(tenantPools * tenantPoolConnections))"
            )
        }
        guard holdingsCacheEntries >= 0, holdingsCacheMegabytes >= 0 else {
            throw ValidationError("--holdings-cache-entries and --holdings-cache-megabytes must be 0 or more")
        }
    }

    /// The control schema's pool: what the tenant pools leave.
    var controlConnections: Int { databaseConnections - tenantPools * tenantPoolConnections }

    func run() async throws {
        Runtime.bootstrapLogging()
        var logger = Logger(label: "storegate")
        logger.logLevel = Runtime.environment["STOREGATE_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        var roots: [Certificate] = []
        for path in trustRoots {
            guard let data = FileManager.default.contents(atPath: path), let root = JWSCommand.Verify.certificate(data) else {
                throw ValidationError("\(path) is not a DER or PEM certificate")
            }
            roots.append(root)
        }
        if noOcsp { logger.warning("--no-ocsp: revoked App Store certificates are not detected") }
        if !roots.isEmpty || allowUnsignedEnvironments {
            logger.warning("development trust settings: signed data is not checked against Apple Root CA - G3 alone")
        }
        if allowPrivateWebhookUrls { logger.warning("--allow-private-webhook-urls: tenants can make this server call into its own network") }
        let metrics = RPCMetrics()
        let capabilities: Capabilities
        let postgres: PostgresPersistence
        do {
            let database = try Runtime.databaseConfiguration(maximumConnections: controlConnections)
            do {
                try await database.check(logger: logger)
            } catch {
                logger.warning("not ready: \(error.description); /readyz answers 503 until the database can be reached")
            }
            (capabilities, postgres) = try Runtime.makeCapabilities(
                logger: logger, database: database,
                trust: (roots: roots.isEmpty ? [try ChainVerifier.appleRootCAG3()] : roots, allowUnsignedEnvironments: allowUnsignedEnvironments),
                ocsp: noOcsp ? nil : HTTPOCSPTransport(http: .shared),
                webhooks: WebhookSettings(
                    urls: WebhookURLPolicy(allowPrivate: allowPrivateWebhookUrls), jobLease: Runtime.jobLease, observe: metrics.webhookObserver),
                holdingsCache: HoldingsCache.Settings(
                    entries: holdingsCacheEntries, bytes: holdingsCacheMegabytes << 20, observe: metrics.holdingsObserver),
                tenantPools: TenantPools.Settings(
                    count: tenantPools, connectionsEach: tenantPoolConnections, tenantsPerGeneration: tenantPoolTenants,
                    lifetime: .milliseconds(Int64(tenantPoolLifetime * 1000))),
                reconciliation: ReconciliationSettings(
                    sweepEvery: sweepMinutes > 0 ? .milliseconds(Int64(sweepMinutes * 60_000)) : nil,
                    renewalCheckAfter: .milliseconds(Int64(renewalCheckMinutes * 60_000)), observe: metrics.reconciliationObserver),
                dataRetention: DataRetentionSettings(observe: metrics.dataRetentionObserver))
        } catch {
            throw Runtime.fail(String(describing: error))
        }
        if (try? capabilities.vault.ring()) == nil { logger.warning("no master key configured: app keys cannot be imported or used") }
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.tlsCertificatePath = tlsCert
        configuration.tlsKeyPath = tlsKey
        configuration.maxBodyBytes = maxBodyBytes
        configuration.maxBatchSize = maxBatchSize
        configuration.batchConcurrency = batchConcurrency
        configuration.publicURL = Runtime.environment["STOREGATE_PUBLIC_URL"]
        configuration.idleTimeout = .milliseconds(Int64(idleTimeout * 1000))
        configuration.shutdownGracePeriod = .milliseconds(Int64(shutdownGracePeriod * 1000))
        let log = logger
        let tls = tlsCert != nil
        let app = try buildApplication(
            configuration: configuration, capabilities: capabilities, metrics: metrics, services: [postgres.client] + [postgres.tenantPools].compactMap { $0 },
            logger: logger,
            onServerRunning: { port in log.info("storegate listening", metadata: ["port": .stringConvertible(port), "tls": .stringConvertible(tls)]) })
        try await Runtime.listening(host: host, port: port, what: "storegate serve") {
            try await runUntilTerminated(app, configuration: configuration, logger: logger)
        }
    }
}

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Bring the control schema and every tenant schema to the latest version.",
        discussion: "Safe to repeat and to run concurrently: each schema migrates in one transaction under its own lock.")

    @Option(help: "Tenants migrated at once.") var concurrency = 4

    func run() async throws {
        let concurrency = concurrency
        let report = try await Runtime.run(maximumConnections: concurrency + 1) { _, postgres in
            let migrator = Migrator(client: postgres.client, logger: postgres.logger, concurrency: concurrency)
            let applied = try await migrator.migrateControl()
            print(applied.isEmpty ? "control schema: current" : "control schema: applied \(applied.map(String.init).joined(separator: ", "))")
            let start = ContinuousClock.now
            let report = try await migrator.migrateTenants { done, total in
                if total > 0, done == total || done % 50 == 0 { print("\(done)/\(total) tenants") }
            }
            let elapsed = ContinuousClock.now - start
            print(
                "tenants: \(report.migrated) migrated, \(report.total - report.migrated - report.failures.count) skipped, \(report.failures.count) failed in \(elapsed.formatted(.units(allowed: [.seconds, .milliseconds])))"
            )
            return report
        }
        for failure in report.failures { FileHandle.standardError.write(Data("storegate: \(failure.schema): \(failure.error)\n".utf8)) }
        if !report.failures.isEmpty { throw ExitCode.failure }
    }
}
