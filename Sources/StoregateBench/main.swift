import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import KeyVault
import Logging
import NIOCore
import NIOHTTP1
import PostgresNIO
import Storegate
import StoregatePostgres
import StoregateServer
import Synchronization

/// What `--help` prints: what the bench runs and its options.
let usage = """
    Usage: storegate-bench [--seconds S] [--probe] [--only PHASE,…] [--metrics-transactions N] [--tenants N] [--keep-tenants]
                           [--tenant-pools N] [--tenant-pool-connections N] [--tenant-pool-tenants N] [--retention-events N]
                           [--retention-batch N] [--retention-pause-ms N] [--failover-command C] [--kill-command C]
                           [--move-command C] [--wait-command C]

    Storegate and the App Store simulator in this process, on loopback ports, against the PostgreSQL of
    STOREGATE_DATABASE_URL; load over HTTP with keep-alive. Prints the figures the README quotes.

    Phases: signing, reads, metrics (1,000,000 transactions, then metrics.get), storm (console sign-ins for 30 s),
    tenants, ingest, retention (Apple's Retention Messaging), data-retention (1,000,000 old events deleted by the
    job, --retention-events N), stale, crash, and (only when named) failover with --failover-command,
    --kill-command, --move-command (run with STOREGATE_BENCH_SCHEMA, the tenant's schema) and --wait-command (see
    deploy/local/ha and deploy/local/citus). Like `storegate serve`, 20 connections: 4 tenant pools of 4 and 4 for
    the control schema (`--tenant-pools 0`: all 20 shared). openssl (if installed) is run beside the batch rounds
    for the yardstick. The tenants phase creates N tenants (default 1,000; with --keep-tenants an earlier run's are
    used and kept) and reads status for a random one per request. Reads are measured against a server with the
    holdings cache and against one without (every read a miss). The crash phase runs `storegate serve` (built
    beside this program) and kills it under load.
    """

let arguments = CommandLine.arguments
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(0)
}
/// Options that take a value, and flags; anything else starting with "--" is refused before the bench
/// connects (a misspelt option would otherwise run the defaults).
let valued: Set = [
    "--seconds", "--only", "--metrics-transactions", "--tenants", "--tenant-pools", "--tenant-pool-connections", "--tenant-pool-tenants",
    "--retention-events", "--retention-batch", "--retention-pause-ms", "--failover-command", "--kill-command", "--move-command", "--wait-command",
]
let flags: Set = ["--probe", "--keep-tenants"]
// An argument is an option's value when the one before it takes a value (arguments[i] precedes arguments[i + 1]).
let unknown = arguments.dropFirst().enumerated().filter { i, argument in
    argument.hasPrefix("--") && !valued.contains(argument) && !flags.contains(argument) && !valued.contains(arguments[i])
}
if let first = unknown.first?.element {
    FileHandle.standardError.write(Data("storegate-bench: unknown option \(first)\n\n\(usage)\n".utf8))
    exit(64)
}
func option(_ name: String) -> String? { arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil } }
let seconds = option("--seconds").flatMap(Double.init) ?? 5
let keepTenants = arguments.contains("--keep-tenants")
func runs(_ phase: String) -> Bool { option("--only").map { $0.split(separator: ",").contains(Substring(phase)) } ?? (phase != "failover") }
let quiet = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
let bundleId = "com.example.bench"

let tenantPools = TenantPools.Settings(
    count: option("--tenant-pools").flatMap(Int.init) ?? 4, connectionsEach: option("--tenant-pool-connections").flatMap(Int.init) ?? 4,
    tenantsPerGeneration: option("--tenant-pool-tenants").flatMap(Int.init) ?? TenantPools.Settings().tenantsPerGeneration)
let config = try DatabaseConfiguration(
    url: ProcessInfo.processInfo.environment["STOREGATE_DATABASE_URL"] ?? DatabaseConfiguration.defaultURL,
    maximumConnections: 20 - tenantPools.count * tenantPools.connectionsEach)
let postgres = DatabaseClient(configuration: config, backgroundLogger: quiet)
let pools = TenantPools(client: postgres, settings: tenantPools)
let http = NotificationSender.makeHTTPClient()
let simulator = try AppStoreSimulator(sender: NotificationSender(http: http, logger: quiet))
let vault = KeyVault(ring: MasterKeyRing(active: try MasterKey(base64: MasterKey.generate()), previous: []))
let persistence = PostgresPersistence(client: postgres, tenantPools: pools, logger: quiet)

func firstPort(_ ports: AsyncStream<Int>) async throws -> Int {
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else { throw CancellationError() }
    return port
}

/// One figure, flushed at once (also into a file): a long phase's figures are not held back until the end.
func line(_ label: String, _ value: String) {
    print(label.padding(toLength: 66, withPad: " ", startingAt: 0) + value)
    fflush(nil)
}

try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { await postgres.run() }
    group.addTask { await pools.run() }
    try await persistence.migrator.migrateControl()

    let (simPorts, simContinuation) = AsyncStream<Int>.makeStream()
    let simApp = simulator.application(port: 0, logger: quiet) { simContinuation.yield($0) }
    group.addTask { try await simApp.runService() }
    let simPort = try await firstPort(simPorts)
    let capabilitiesWithApple = try Capabilities(
        persistence: persistence, vault: vault, logger: quiet, authCacheTTL: .seconds(5), trust: ([simulator.ca.root], false),
        appStoreURL: "http://127.0.0.1:\(simPort)", http: http, webhooks: WebhookSettings(urls: WebhookURLPolicy(allowPrivate: true)),
        // The figures are of the paths measured: no sweeps of every tenant's history meanwhile.
        reconciliation: ReconciliationSettings(sweepEvery: nil))
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.maxBatchSize = 100
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let server = try buildApplication(configuration: configuration, capabilities: capabilitiesWithApple, logger: quiet) { continuation.yield($0) }
    group.addTask { try await server.runService() }
    let port = try await firstPort(ports)
    let base = "http://127.0.0.1:\(port)"
    // The same API without the holdings cache (it keeps no entry), for reads that all miss. No job worker.
    let uncached = try Capabilities(
        persistence: persistence, vault: vault, logger: quiet, authCacheTTL: .seconds(5), holdingsCache: HoldingsCache.Settings(entries: 0))
    var uncachedConfiguration = configuration
    uncachedConfiguration.runsJobWorker = false
    let (uncachedPorts, uncachedContinuation) = AsyncStream<Int>.makeStream()
    let uncachedServer = try buildApplication(configuration: uncachedConfiguration, capabilities: uncached, logger: quiet) { uncachedContinuation.yield($0) }
    group.addTask { try await uncachedServer.runService() }
    let missBase = "http://127.0.0.1:\(try await firstPort(uncachedPorts))"
    // The same API on connections and caches of its own, met first by the tenants phase's first reads.
    let firstReadPostgres = DatabaseClient(configuration: config, backgroundLogger: quiet)
    let firstReadPools = TenantPools(client: firstReadPostgres, settings: tenantPools)
    group.addTask { await firstReadPostgres.run() }
    group.addTask { await firstReadPools.run() }
    let firstRead = try Capabilities(
        persistence: PostgresPersistence(client: firstReadPostgres, tenantPools: firstReadPools, logger: quiet), vault: vault, logger: quiet,
        authCacheTTL: .seconds(5))
    let (firstReadPorts, firstReadContinuation) = AsyncStream<Int>.makeStream()
    let firstReadServer = try buildApplication(configuration: uncachedConfiguration, capabilities: firstRead, logger: quiet) {
        firstReadContinuation.yield($0)
    }
    group.addTask { try await firstReadServer.runService() }
    let firstReadBase = "http://127.0.0.1:\(try await firstPort(firstReadPorts))"
    // The anchor for the RPC path's figures (reads): a bare Hummingbird 2 server (BareServer.swift).
    let (barePorts, bareContinuation) = AsyncStream<Int>.makeStream()
    let bareServer = BareServer.application(logger: quiet) { bareContinuation.yield($0) }
    group.addTask { try await bareServer.runService() }
    let bareBase = "http://127.0.0.1:\(try await firstPort(barePorts))"

    // A tenant with one app, its key (known to the simulator too) and an API key.
    let slug = "bench-" + UUID().uuidString.prefix(8).lowercased()
    let tenant = try await capabilitiesWithApple.tenants.create(slug: slug, name: "Bench", actor: .cli)
    let app = try await capabilitiesWithApple.apps.add(tenant: tenant, bundleId: bundleId, appAppleId: 1, environments: ["Sandbox"], actor: .cli)
    let key = P256.Signing.PrivateKey()
    _ = try await capabilitiesWithApple.apps.importKey(
        tenant: tenant, bundleId: bundleId, keyId: "BENCHKEY01", issuerId: "5b2c7c3e-1a4f-4d2b-9a0e-6f1d2c3b4a59", p8: key.pemRepresentation, actor: .cli)
    let apiKey = try await capabilitiesWithApple.apiKeys.issue(tenant: tenant, label: "bench", actor: .cli).secret
    await simulator.store.register(bundleId: bundleId, appAppleId: 1)
    let webhook = base + "/apple/notifications/" + (app.notificationURLs.first { $0.environment == .sandbox }?.token ?? "")

    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "application/json")
    headers.add(name: "Authorization", value: "Bearer " + apiKey)
    let rpc = Load(client: http, url: base + "/rpc", headers: headers)
    func call(_ method: String, _ params: String, id: Int) -> String { #"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params),"id":\#(id)}"# }
    let offer = #"{"bundleId":"\#(bundleId)","productId":"com.example.monthly","offerId":"WINBACK","transactionId":"2000000000000001"}"#
    let single = ByteBuffer(string: call("offers.signPromotionalJWS", offer, id: 1))
    let batch = ByteBuffer(string: "[" + (1...100).map { call("offers.signPromotionalJWS", offer, id: $0) }.joined(separator: ",") + "]")

    let durability = try await postgres.withConnection { @Sendable conn in
        let fsync = try await conn.first("SELECT current_setting('fsync')", as: String.self, logger: quiet) ?? "?"
        let commit = try await conn.first("SELECT current_setting('synchronous_commit')", as: String.self, logger: quiet) ?? "?"
        return "fsync \(fsync), synchronous_commit \(commit)"
    }
    print("Storegate benchmark: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(Int(seconds)) s per figure, HTTP/1.1 keep-alive on loopback")
    print("PostgreSQL: \(durability)")

    if runs("signing") {
        _ = await rpc.closedLoop(seconds: 1, concurrency: 4) { _ in single }  // warm-up: connections, caches
        let singles = await rpc.closedLoop(seconds: seconds, concurrency: 8) { _ in single }
        // The CPU's speed drifts on a shared machine, so openssl is measured right before and right after
        // the batch rounds, and the ratio taken against their mean.
        let opensslBefore = OpenSSLSpeed.measure()
        var batchRounds: [Load.Figures] = []
        let cpuBefore = ProcessCPU.seconds()
        for _ in 0..<3 { batchRounds.append(await rpc.closedLoop(seconds: seconds, concurrency: 8) { _ in batch }) }
        let batchCPU = ProcessCPU.seconds() - cpuBefore
        let opensslAfter = OpenSSLSpeed.measure()
        let paced = await rpc.openLoop(seconds: seconds, rate: 1000) { _ in single }
        let measured = [opensslBefore, opensslAfter].compactMap { $0 }
        let opensslRate = measured.isEmpty ? nil : measured.reduce(0, +) / Double(measured.count)
        if !measured.isEmpty {
            let before = opensslBefore.map { String(format: "%.0f before", $0) }
            let after = opensslAfter.map { String(format: "%.0f after", $0) }
            line("openssl speed -seconds 3 ecdsap256, one core (sign/s)", [before, after].compactMap { $0 }.joined(separator: ", ") + " the batches")
        }
        line("offers.signPromotionalJWS, single calls, 8 in flight", String(format: "%.0f offers/s (%d failed)", singles.perSecond, singles.failed))
        let roundRates = batchRounds.map { $0.perSecond * 100 }
        let batchRate = roundRates.sorted()[roundRates.count / 2]
        line(
            "offers.signPromotionalJWS, batches of 100, 8 in flight",
            String(format: "%.0f offers/s", batchRate) + ", median of " + roundRates.map { String(format: "%.0f", $0) }.joined(separator: ", ")
                + " (\(batchRounds.reduce(0) { $0 + $1.failed }) failed)")
        if let opensslRate { line("  batched / openssl single-core", String(format: "%.0f%% (target ≥ 75%%)", batchRate / opensslRate * 100)) }
        // openssl divides by the user CPU time it had, the batches by the wall clock: on a machine that other
        // work shares, the second falls and the first does not. The CPU each offer took is the steadier figure:
        // client and server share this process (PostgreSQL's share of the audit writes is not in it).
        let cpuPerOffer = batchCPU / Double(max(1, batchRounds.reduce(0) { $0 + $1.completed } * 100))
        line("  CPU per offer (this process: client and server)", String(format: "%.1f µs", cpuPerOffer * 1e6))
        if let opensslRate {
            line(
                "  both cores' CPU at that cost / openssl single-core",
                String(
                    format: "%.0f offers/s, %.0f%% (openssl: %.1f µs per signature)", 2 / cpuPerOffer, 2 / cpuPerOffer / opensslRate * 100, 1e6 / opensslRate))
        }
        line(
            "single calls at 1,000/s (open loop)",
            String(
                format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms (target p99 < 10 ms); %.0f/s, %d failed", paced.percentile(0.5), paced.percentile(0.99),
                paced.latencies.max() ?? .nan, paced.perSecond, paced.failed))
    }

    // Status reads: a customer whose subscription arrived by notification.
    let customer = try await capabilitiesWithApple.accounts.ensureCustomer(tenant: tenant, customerId: "bench-customer", actor: .cli)
    await simulator.store.setNotificationURL(bundleId: bundleId, url: webhook)
    var purchase = SimulatorStore.Purchase(
        customer: "bench-device", bundleId: bundleId, productId: "com.example.monthly", type: .autoRenewableSubscription,
        appAccountToken: customer.appAccountToken)
    purchase.subscriptionGroupIdentifier = "group.bench"
    let bought = try await simulator.purchase(purchase)
    for _ in 0..<200 {
        if try await !capabilitiesWithApple.subscriptions.status(
            tenant: tenant, customerId: "bench-customer", bundleId: nil, transactionId: nil, refresh: false
        )
        .isEmpty {
            break
        }
        try await Task.sleep(for: .milliseconds(10))
    }
    await simulator.store.setNotificationURL(bundleId: bundleId, url: nil)
    let (others, schema, appId, logger) = (100_000, try TenantSchema(validating: tenant.storageName).sql, app.app.id, quiet)
    if runs("reads") {
        // Other customers' subscriptions beside hers, so that a read that scans the table shows.
        try await postgres.withConnection { @Sendable conn in
            try await conn.run(
                """
                INSERT INTO \(unescaped: schema).subscriptions (app_id, environment, original_transaction_id, status, product_id, latest_transaction_id, signed_date)
                SELECT \(appId), 'Sandbox', (3000000000000000 + i)::text, 1, 'com.example.monthly', (3000000000000000 + i)::text, now()
                FROM generate_series(1, \(others)) i
                """, logger: logger)
            try await conn.run("ANALYZE \(unescaped: schema).subscriptions", logger: logger)
        }
        // A catalog in which her product unlocks "pro", for entitlements.check.
        let catalog =
            #"{"products":[{"bundleId":"\#(bundleId)","productId":"com.example.monthly","type":"Auto-Renewable Subscription","displayName":"Pro"}],"#
            + #""entitlements":[{"name":"pro","description":"","productIds":["com.example.monthly"]}]}"#
        _ = try await capabilitiesWithApple.catalog.setCatalog(tenant: tenant, try JSONDecoder().decode(Catalog.self, from: Data(catalog.utf8)), actor: .cli)
        // --probe: one call at a time through each layer (pool, unit of work with deadlines, the statement, the
        // service, HTTP), for where a status read's time goes.
        if arguments.contains("--probe") {
            func probe(_ label: String, _ n: Int = 5000, _ body: @Sendable () async throws -> Void) async throws {
                for _ in 0..<200 { try await body() }
                let start = ContinuousClock.now
                for _ in 0..<n { try await body() }
                let us = (ContinuousClock.now - start) / .microseconds(1) / Double(n)
                print(label.padding(toLength: 50, withPad: " ", startingAt: 0) + String(format: "%.1f µs", us))
            }
            try await probe("pool: SELECT 1") {
                try await postgres.withConnection { @Sendable c in _ = try await c.first("SELECT 1", as: Int.self, logger: logger) }
            }
            try await probe("persistence read unit, SELECT 1 (deadlines)") {
                _ = try await persistence.inTenant(tenant, .read) { u in try await u.customers.find(customerId: "nobody") }
            }
            try await probe("holdings (unit + statement)") {
                _ = try await persistence.inTenant(tenant, .read) { u in
                    try await u.customers.holdings(customerId: "bench-customer", purchases: false)?.subscriptions.count ?? 0
                }
            }
            try await probe("capabilities.subscriptions.status") {
                _ = try await capabilitiesWithApple.subscriptions.status(
                    tenant: tenant, customerId: "bench-customer", bundleId: nil, transactionId: nil, refresh: false)
            }
            let tenantBody = ByteBuffer(string: call("tenant.get", "{}", id: 1))
            let statusBody = ByteBuffer(string: call("subscriptions.status", #"{"customerId":"bench-customer"}"#, id: 1))
            try await probe("HTTP tenant.get", 2000) { _ = await rpc.send(tenantBody) }
            try await probe("HTTP subscriptions.status", 2000) { _ = await rpc.send(statusBody) }
        }
        let statusBody = ByteBuffer(string: call("subscriptions.status", #"{"customerId":"bench-customer"}"#, id: 1))
        let statuses = await rpc.closedLoop(seconds: seconds, concurrency: 8) { _ in statusBody }
        let pacedStatus = await rpc.openLoop(seconds: seconds, rate: 2000) { _ in statusBody }
        // The same reads from wrk's own process, and tenant.get for what HTTP, JSON-RPC and authentication cost.
        let authorization = "Bearer " + apiKey
        // tenant.get and status beside the anchor, a bare Hummingbird 2 server, a second each in turn (the
        // machine's speed drifts): what Storegate's RPC path costs past HTTP, JSON and a bearer check.
        let tenantGet = call("tenant.get", "{}", id: 1)
        let beside = await Wrk.interleaved(
            [
                .init(url: bareBase + "/rpc", body: tenantGet, authorization: BareServer.authorization),
                .init(url: bareBase + "/rpc/parsed", body: tenantGet, authorization: BareServer.authorization),
                .init(url: base + "/rpc", body: tenantGet, authorization: authorization),
                .init(url: base + "/rpc", body: call("subscriptions.status", #"{"customerId":"bench-customer"}"#, id: 1), authorization: authorization),
            ], rounds: Int(seconds.rounded(.up)), connections: 8)
        let (bare, bareParsed, wrkTenant, wrkStatus) = (beside?[0], beside?[1], beside?[2], beside?[3])
        let wrkEntitlements = await Wrk.run(
            url: base + "/rpc", body: call("entitlements.list", #"{"customerId":"bench-customer"}"#, id: 1), authorization: authorization, connections: 8,
            seconds: seconds)
        let checkParams = #"{"customerId":"bench-customer","entitlement":"pro"}"#
        let wrkCheck = await Wrk.run(
            url: base + "/rpc", body: call("entitlements.check", checkParams, id: 1), authorization: authorization, connections: 8, seconds: seconds)
        let wrkStatusMiss = await Wrk.run(
            url: missBase + "/rpc", body: call("subscriptions.status", #"{"customerId":"bench-customer"}"#, id: 1), authorization: authorization,
            connections: 8, seconds: seconds)
        let wrkEntitlementsMiss = await Wrk.run(
            url: missBase + "/rpc", body: call("entitlements.list", #"{"customerId":"bench-customer"}"#, id: 1), authorization: authorization,
            connections: 8, seconds: seconds)
        let wrkCheckMiss = await Wrk.run(
            url: missBase + "/rpc", body: call("entitlements.check", checkParams, id: 1), authorization: authorization, connections: 8, seconds: seconds)
        line("subscriptions.status, 8 in flight (100,000 others' in tenant)", String(format: "%.0f reads/s (%d failed)", statuses.perSecond, statuses.failed))
        line(
            "subscriptions.status at 2,000/s (open loop)",
            String(
                format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms (target p99 < 5 ms); %.0f/s, %d failed", pacedStatus.percentile(0.5),
                pacedStatus.percentile(0.99), pacedStatus.latencies.max() ?? .nan, pacedStatus.perSecond, pacedStatus.failed))
        for (label, figures) in [
            ("wrk -c 8: subscriptions.status", wrkStatus), ("wrk -c 8: entitlements.list", wrkEntitlements), ("wrk -c 8: entitlements.check", wrkCheck),
            ("wrk -c 8: tenant.get", wrkTenant), ("wrk -c 8: subscriptions.status, every read a miss", wrkStatusMiss),
            ("wrk -c 8: entitlements.list, every read a miss", wrkEntitlementsMiss), ("wrk -c 8: entitlements.check, every holdings read a miss", wrkCheckMiss),
        ] {
            line(label, figures.map { String(format: "%.0f/s, p50 %@, p99 %@ (%d failed)", $0.perSecond, $0.p50, $0.p99, $0.failed) } ?? "wrk not installed")
        }
        if let bare, let bareParsed, let wrkTenant, let wrkStatus {
            for (label, figures) in [("wrk -c 8: bare Hummingbird 2, bearer, Codable (the anchor)", bare), ("  the same with JSONParser", bareParsed)] {
                line(label, String(format: "%.0f/s, p50 %@, p99 %@ (%d failed)", figures.perSecond, figures.p50, figures.p99, figures.failed))
            }
            let ratio = { (figures: Wrk.Figures) in
                String(
                    format: "%.0f%% of the anchor, %.0f%% with JSONParser", figures.perSecond / bare.perSecond * 100,
                    figures.perSecond / bareParsed.perSecond * 100)
            }
            line("  tenant.get beside them (target ≥ 90%)", ratio(wrkTenant))
            line("  subscriptions.status beside them (target ≥ 80%)", ratio(wrkStatus))
        }
    }

    if runs("metrics") {
        // A year of 1,000,000 transactions and their lifecycle events, the rollup made from them, then
        // metrics.get for the year by month, as a backend calls it.
        let count = option("--metrics-transactions").flatMap(Int.init) ?? 1_000_000
        let seeded = ContinuousClock.now
        try await MetricsFigures.seed(postgres, schema: schema, appId: appId, count: count, logger: quiet)
        let seedTime = ContinuousClock.now - seeded
        let rebuilt = ContinuousClock.now
        try await capabilitiesWithApple.metrics.rebuild(tenant: tenant)
        let rebuildTime = ContinuousClock.now - rebuilt
        let (days, members, cohortRows) = try await postgres.withConnection { @Sendable conn in
            let count = { (table: String) in
                try await conn.first("SELECT count(*)::bigint FROM \(unescaped: schema).\(unescaped: table)", as: Int64.self, logger: quiet) ?? 0
            }
            return (try await count("metrics_daily"), try await count("metrics_cohort_members"), try await count("metrics_cohorts"))
        }
        line(
            "metrics: \(count) transactions and events written",
            String(
                format: "%.1f s; rollups rebuilt in %.1f s: %d daily rows, %d cohort members, %d cohort rows", seedTime.inSeconds, rebuildTime.inSeconds,
                days, members, cohortRows))
        let year = #"{"from":"2025-11-01T00:00:00Z","to":"2026-10-31T00:00:00Z","step":"month"}"#
        let yearInUSD = #"{"from":"2025-11-01T00:00:00Z","to":"2026-10-31T00:00:00Z","step":"month","convertTo":"USD"}"#
        var single: [Double] = []
        for _ in 0..<50 {
            let started = ContinuousClock.now
            _ = await rpc.send(ByteBuffer(string: call("metrics.get", year, id: 1)))
            single.append((ContinuousClock.now - started).inSeconds * 1000)
        }
        single.sort()
        line("metrics.get, a year by month, one at a time", String(format: "p50 %.1f ms, p99 %.1f ms (target < 100 ms)", single[24], single[49]))
        let cohorts = #"{"from":"2025-11-01T00:00:00Z","to":"2026-10-31T00:00:00Z"}"#
        var cohortCalls: [Double] = []
        for _ in 0..<50 {
            let started = ContinuousClock.now
            _ = await rpc.send(ByteBuffer(string: call("metrics.cohorts", cohorts, id: 1)))
            cohortCalls.append((ContinuousClock.now - started).inSeconds * 1000)
        }
        cohortCalls.sort()
        line(
            "metrics.cohorts, a year's cohorts, one at a time",
            String(format: "p50 %.1f ms, p99 %.1f ms (target < 100 ms)", cohortCalls[24], cohortCalls[49]))
        let authorization = "Bearer " + apiKey
        for (label, method, params) in [
            ("wrk -c 8: metrics.get, a year by month", "metrics.get", year), ("wrk -c 8: metrics.get, a year by month in USD", "metrics.get", yearInUSD),
            ("wrk -c 8: metrics.cohorts, a year's cohorts", "metrics.cohorts", cohorts),
        ] {
            let figures = await Wrk.run(
                url: base + "/rpc", body: call(method, params, id: 1), authorization: authorization, connections: 8, seconds: seconds)
            line(label, figures.map { String(format: "%.0f/s, p50 %@, p99 %@ (%d failed)", $0.perSecond, $0.p50, $0.p99, $0.failed) } ?? "wrk not installed")
        }
    }
    if runs("storm") {
        // Console sign-ins, wrong passwords, for 30 s from wrk, while status is read and readiness checked.
        _ = try await capabilitiesWithApple.consoleUsers.add(
            tenant: tenant, email: "support@bench.example", role: .support, password: "the right password, never sent", actor: .cli)
        let statusBody = ByteBuffer(string: call("subscriptions.status", #"{"customerId":"bench-customer"}"#, id: 1))
        if let storm = await SignInStorm.run(base: base, tenant: slug, rpc: rpc, statusBody: statusBody, seconds: 30) {
            line(
                "console sign-in storm, wrk -c 64, 30 s (wrong passwords)",
                String(format: "%.0f/s; ", storm.signIns) + storm.statuses.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", "))
            line(
                "  meanwhile subscriptions.status at 200/s",
                String(
                    format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms (target p99 < 50 ms); %d failed", storm.status.percentile(0.5),
                    storm.status.percentile(0.99), storm.status.latencies.max() ?? .nan, storm.status.failed))
            line(
                "  meanwhile /readyz every 100 ms",
                String(format: "%d of %d not ready (target 0); slowest %.1f ms", storm.readiness.notReady, storm.readiness.checks, storm.readiness.slowest))
        } else {
            line("console sign-in storm", "wrk not installed")
        }
    }

    // Ingestion posts notifications about new subscriptions, each a new customer's (known to Storegate by its
    // appAccountToken, as after `accounts.ensure`): SUBSCRIBED (INITIAL_BUY), then DID_RENEW a month on, each
    // with its signed transaction and renewal info, in blocks of 500 (a block's purchases, then their
    // renewals). Apple is answered once a notification is stored with its job; the job worker applies it after.
    // Acknowledged: the rate of 200s. Processed: from the first post until no `processNotification` job is left.
    let count = Int(seconds * 3000)
    var subscriptions = NewSubscriptions(ca: simulator.ca, bundleId: bundleId, template: bought)
    /// The notifications of `count / 2` new subscriptions, each a new customer's of the tenant of `schema`.
    func notifications(to schema: String, _ n: Int? = nil) async throws -> [(token: UUID, body: String)] {
        try subscriptions.notifications(tokens: try await NewSubscriptions.customers(n ?? count / 2, in: schema, postgres: postgres, logger: quiet))
    }
    /// The bench tenant's new subscriptions' notifications.
    func newSubscriptions() async throws -> [String] { try await notifications(to: schema).map(\.body) }
    func backlog() async throws -> Int {
        try await postgres.withConnection { @Sendable conn in
            // The inbox, not the jobs: a notification leaves it in the transaction that applies it, and it holds
            // nothing else (the jobs table holds every tenant's recurring jobs: 30,000 rows at 10,000 tenants,
            // 9 ms a count).
            try await conn.first("SELECT count(*)::int FROM storegate.notification_inbox", as: Int.self, logger: logger) ?? 0
        }
    }
    // With the job worker paused, the acknowledgement is measured alone, then the processing alone.
    func measure(
        _ label: String, workerPaused: Bool = false, _ post: @Sendable () async -> (perSecond: Double, completed: Int, failed: Int)?
    ) async throws {
        capabilitiesWithApple.worker.pause(workerPaused)
        defer { capabilitiesWithApple.worker.pause(false) }
        var start = ContinuousClock.now
        guard let posted = await post() else { return line(label, "wrk not installed") }
        let waiting = try await backlog()
        if workerPaused {
            start = ContinuousClock.now
            capabilitiesWithApple.worker.pause(false)
        }
        // Every 100 ms: counting the queue costs the database a scan, not to be taken from what is measured.
        var left = try await backlog()
        while left > 0, ContinuousClock.now - start < .seconds(120) {
            try await Task.sleep(for: .milliseconds(100))
            left = try await backlog()
        }
        let processedIn = ContinuousClock.now - start
        let distinct = min(posted.completed, count)
        line(label, String(format: "%.0f/s (%d distinct, %d failed)", posted.perSecond, distinct, posted.failed))
        // Given up after 120 s: the rate is of those applied by then.
        let applied = max(0, distinct - left)
        line(
            workerPaused ? "  then processed alone" : "  processed by the job worker",
            String(
                format: "%.0f/s: %@ %d applied %.2f s after the %@ (%d waiting when posting ended)",
                Double(applied) / (processedIn / .seconds(1)), left > 0 ? "only" : "all", applied, processedIn / .seconds(1),
                workerPaused ? "worker resumed" : "first post", waiting))
    }
    /// wrk posting `requests` in turn, each to its webhook path (nil: the bench tenant's). The requests are
    /// written for wrk now, so that `measure`'s clock starts at the posting, not at writing them (12,000
    /// notifications took about half a second, a tenth of what was measured).
    func wrkIngest(_ requests: [(path: String?, body: String)]) -> @Sendable () async -> (perSecond: Double, completed: Int, failed: Int)? {
        let script = Wrk.inTurn(requests)
        return {
            await Wrk.run(url: webhook, body: "", authorization: nil, connections: 8, seconds: seconds, script: script).map {
                ($0.perSecond, Int($0.perSecond * seconds), $0.failed)
            }
        }
    }

    if runs("tenants") {
        // Many tenants, each with an app, an API key and a customer. wrk reads status with the same tenant's key
        // each time, then with a random tenant's per request, twice (the first pass meets most tenants for the
        // first time in the process's caches and in the backends' catalog caches); then posts notifications to
        // one tenant's webhook, then each to a random tenant's.
        let tenantCount = option("--tenants").flatMap(Int.init) ?? 1000
        let created = ContinuousClock.now
        // With --keep-tenants, an earlier run's tenants are used again (each given a new API key) and kept at
        // the end: creating 10,000 takes a quarter of an hour.
        let earlier = keepTenants ? Array(try await capabilitiesWithApple.tenants.list().filter { $0.slug.hasPrefix("many-") }.prefix(tenantCount)) : []
        let made = try await withThrowingTaskGroup(of: [(key: String, webhook: String, schema: String)].self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var made: [(key: String, webhook: String, schema: String)] = []
                    for index in stride(from: worker, to: tenantCount, by: 4) {
                        let tenant: Tenant
                        let app: AppDetails
                        if index < earlier.count {
                            tenant = earlier[index]
                            guard let found = try await capabilitiesWithApple.apps.list(tenant: tenant).first else { continue }
                            app = found
                        } else {
                            let slug = "many-\(index)-" + UUID().uuidString.prefix(6).lowercased()
                            tenant = try await capabilitiesWithApple.tenants.create(slug: slug, name: "Many \(index)", actor: .cli)
                            app = try await capabilitiesWithApple.apps.add(
                                tenant: tenant, bundleId: bundleId, appAppleId: 1, environments: ["Sandbox"], actor: .cli)
                            _ = try await capabilitiesWithApple.accounts.ensure(tenant: tenant, customerId: "bench-customer", actor: .cli)
                        }
                        let key = try await capabilitiesWithApple.apiKeys.issue(tenant: tenant, label: "bench", actor: .cli).secret
                        let webhook = "/apple/notifications/" + (app.notificationURLs.first { $0.environment == .sandbox }?.token ?? "")
                        made.append(("Bearer " + key, webhook, try TenantSchema(validating: tenant.storageName).sql))
                    }
                    return made
                }
            }
            var all: [(key: String, webhook: String, schema: String)] = []
            for try await made in group { all += made }
            return all
        }
        line(
            "\(tenantCount) tenants (\(earlier.count) of an earlier run), 4 at a time", String(format: "%.1f s", (ContinuousClock.now - created) / .seconds(1)))
        let keys = made.map(\.key)
        // Each tenant's first read since the server started: a server of its own (its caches empty, its
        // connections new), each key once, in a random order, for as long as the keys last.
        let firstReadSeconds = min(seconds, 60)
        let firsts = await Wrk.run(
            url: firstReadBase + "/rpc", body: call("subscriptions.status", #"{"customerId":"bench-customer"}"#, id: 1), authorization: nil, connections: 8,
            seconds: firstReadSeconds, script: Wrk.eachOnce(keys.shuffled()))
        line(
            "wrk -c 8: status, each of \(tenantCount) tenants' first read since the server started",
            firsts.map {
                String(
                    format: "%.0f/s, p50 %@, p99 %@ (%d failed)%@", $0.perSecond, $0.p50, $0.p99, $0.failed,
                    $0.perSecond * firstReadSeconds > Double(tenantCount) ? "; keys ran out: some reads were seconds" : "")
            } ?? "wrk not installed")
        line("  PostgreSQL backends' private memory after it", try await BackendMemory.measure(postgres))
        func read(_ label: String, _ keys: [String], at base: String = base, method: String = "subscriptions.status") async throws {
            let body = call(method, #"{"customerId":"bench-customer"}"#, id: 1)
            let figures = await Wrk.run(
                url: base + "/rpc", body: body, authorization: nil, connections: 8, seconds: seconds, script: Wrk.randomAuthorization(keys))
            line(label, figures.map { String(format: "%.0f/s, p50 %@, p99 %@ (%d failed)", $0.perSecond, $0.p50, $0.p99, $0.failed) } ?? "wrk not installed")
            line("  PostgreSQL backends' private memory after it", try await BackendMemory.measure(postgres))
            line("  tenant pools' generations so far", pools.generations.map(String.init).joined(separator: ", "))
        }
        try await read("wrk -c 8: status, always the same one of them", [keys[0]])
        try await read("wrk -c 8: status, a random one of \(tenantCount) each, first pass", keys)
        try await read("wrk -c 8: status, a random one of \(tenantCount) each, again", keys)
        try await read("wrk -c 8: entitlements, a random one of \(tenantCount) each", keys, method: "entitlements.list")
        try await read("wrk -c 8: status, a random one of \(tenantCount) each, every read a miss", keys, at: missBase)
        try await read("wrk -c 8: entitlements, a random one of \(tenantCount) each, every read a miss", keys, at: missBase, method: "entitlements.list")
        /// New subscriptions' notifications to the first tenant's webhook.
        func toFirstTenant() async throws -> [(path: String?, body: String)] { try await notifications(to: made[0].schema).map { (made[0].webhook, $0.body) } }
        /// New subscriptions' notifications, each subscription's to a random tenant's webhook (its customer made there).
        func spreadOverTenants() async throws -> [(path: String?, body: String)] {
            var tenantOf: [UUID: Int] = [:]
            let chosen = Dictionary(grouping: (0..<count / 2).map { _ in Int.random(in: made.indices) }, by: { $0 })
            for (index, times) in chosen {
                let tokens = try await NewSubscriptions.customers(times.count, in: made[index].schema, postgres: postgres, logger: quiet)
                for token in tokens { tenantOf[token] = index }
            }
            let bodies = try subscriptions.notifications(tokens: Array(tenantOf.keys).shuffled())
            return bodies.map { (path: made[tenantOf[$0.token] ?? 0].webhook, body: $0.body) }
        }
        let one = try await toFirstTenant()
        try await measure("wrk -c 8: notifications to one of them", wrkIngest(one))
        let spread = try await spreadOverTenants()
        try await measure("wrk -c 8: notifications, each series to a random one of \(tenantCount)", wrkIngest(spread))
        // The same with the job worker paused: what the acknowledgement costs alone, then the processing.
        let onePaused = try await toFirstTenant()
        try await measure("wrk -c 8: notifications to one of them, job worker paused", workerPaused: true, wrkIngest(onePaused))
        let spreadPaused = try await spreadOverTenants()
        try await measure(
            "wrk -c 8: notifications, each series to a random one of \(tenantCount), job worker paused", workerPaused: true, wrkIngest(spreadPaused))
        line("  PostgreSQL backends' private memory after it", try await BackendMemory.measure(postgres))
        let slugs = keepTenants ? [] : try await capabilitiesWithApple.tenants.list().map(\.slug).filter { $0.hasPrefix("many-") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for index in stride(from: worker, to: slugs.count, by: 4) {
                        try await capabilitiesWithApple.tenants.delete(slug: slugs[index], confirm: slugs[index], actor: .cli)
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    if runs("ingest") {
        let bodies = try await newSubscriptions().map { ByteBuffer(string: $0) }
        let ingest = Load(client: http, url: webhook, headers: ["Content-Type": "application/json"])
        try await measure("notifications acknowledged (verify, store with job), 8 in flight") {
            let posted = await ingest.closedLoop(seconds: seconds, concurrency: 8) { i in bodies[i % count] }
            return (posted.perSecond, posted.completed, posted.failed)
        }
        // The tenant's tables, empty when the statements' plans were first made, have grown: analyzed, as
        // autovacuum would (see `NewSubscriptions.analyze`).
        try await NewSubscriptions.analyze(schema, postgres: postgres, logger: quiet)
        let wrkBodies = try await newSubscriptions()
        try await measure("wrk -c 8: notifications acknowledged", wrkIngest(wrkBodies.map { (path: nil, body: $0) }))
        // The same with the job worker paused: what the acknowledgement costs alone, then the processing.
        let pausedBodies = try await newSubscriptions()
        try await measure("wrk -c 8: notifications acknowledged, job worker paused", workerPaused: true, wrkIngest(pausedBodies.map { (path: nil, body: $0) }))

        // The same with a webhook endpoint for every event (three per renewal: notification.received,
        // purchase.created, subscription.updated) at a receiver in this process that answers 200: what the
        // deliveries add to ingestion, and how fast they go out.
        let received = Mutex(0)
        let router = Router()
        router.post("/hooks") { request, _ -> HTTPResponse.Status in
            _ = try await request.body.collect(upTo: 1 << 20)
            received.withLock { $0 += 1 }
            return .ok
        }
        let (receiverPorts, receiverContinuation) = AsyncStream<Int>.makeStream()
        let receiver = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { receiverContinuation.yield($0.localAddress?.port ?? 0) },
            logger: quiet)
        group.addTask { try await receiver.runService() }
        let receiverPort = try await firstPort(receiverPorts)
        _ = try await capabilitiesWithApple.webhooks.create(
            tenant: tenant, WebhookEndpointSpec(url: "http://127.0.0.1:\(receiverPort)/hooks"), actor: .cli)
        let withEndpoint = try await newSubscriptions().map { ByteBuffer(string: $0) }
        let start = ContinuousClock.now
        try await measure("notifications acknowledged, 8 in flight, with a webhook endpoint") {
            let posted = await ingest.closedLoop(seconds: seconds, concurrency: 8) { i in withEndpoint[i % count] }
            return (posted.perSecond, posted.completed, posted.failed)
        }
        let schema = try TenantSchema(validating: tenant.storageName).sql
        func pendingDeliveries() async throws -> Int {
            try await postgres.withConnection { @Sendable conn in
                try await conn.first(
                    "SELECT count(*)::int FROM \(unescaped: schema).webhook_deliveries WHERE status = 'pending'", as: Int.self, logger: quiet) ?? 0
            }
        }
        while try await pendingDeliveries() > 0, ContinuousClock.now - start < .seconds(300) { try await Task.sleep(for: .milliseconds(50)) }
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        let delivered = received.withLock { $0 }
        line(
            "  events delivered to a local receiver",
            String(
                format: "%.0f/s: %d delivered %.2f s after the first post (%d pending)", Double(delivered) / elapsed, delivered, elapsed,
                try await pendingDeliveries()))
    }

    if runs("retention") {
        try await RetentionBench.measure(
            capabilities: capabilitiesWithApple, tenant: tenant, bundleId: bundleId,
            token: app.notificationURLs.first { $0.environment == .sandbox }?.token ?? "",
            base: base, originalTransactionId: bought.originalTransactionId ?? "", simulator: simulator, http: http, seconds: seconds, line: line)
    }

    if runs("data-retention") {
        // 1,000,000 events past the default window deleted by the data-retention job while status is read.
        let count = option("--retention-events").flatMap(Int.init) ?? 1_000_000
        let statusBody = ByteBuffer(string: call("subscriptions.status", #"{"customerId":"bench-customer"}"#, id: 1))
        // The job's settings, the server's unless --retention-batch or --retention-pause-ms say otherwise.
        var retentionSettings = DataRetentionSettings()
        retentionSettings.batchSize = option("--retention-batch").flatMap(Int.init) ?? retentionSettings.batchSize
        retentionSettings.pause = option("--retention-pause-ms").flatMap(Int64.init).map(Duration.milliseconds) ?? retentionSettings.pause
        print("data retention: batches of \(retentionSettings.batchSize), a pause of \(retentionSettings.pause) after each")
        let figures = try await DataRetentionBench.measure(
            capabilities: capabilitiesWithApple, postgres: postgres, tenant: tenant, schema: schema, appId: appId, count: count, rpc: rpc,
            miss: Load(client: http, url: missBase + "/rpc", headers: headers), statusBody: statusBody, seconds: seconds, rate: 500,
            settings: retentionSettings, logger: quiet)
        let events = figures.deleted[.events] ?? 0
        line(
            "data retention: \(count) events past the window, \(count / 10) deliveries",
            String(
                format: "seeded in %.1f s; %d events and %d deliveries deleted in %.1f s (%.0f rows/s, %d runs of the job); %d events left",
                figures.seeded.inSeconds,
                events, figures.deleted[.webhookDeliveries] ?? 0, figures.deleting.inSeconds,
                Double(events + (figures.deleted[.webhookDeliveries] ?? 0)) / figures.deleting.inSeconds, figures.runs, figures.left))
        for (label, load) in [
            ("  subscriptions.status at 500/s, nothing deleted", figures.before), ("  subscriptions.status at 500/s while deleting", figures.during),
            ("  the same at 500/s beside it, every read a miss, nothing deleted", figures.missBefore),
            ("  the same at 500/s beside it, every read a miss, while deleting", figures.missDuring),
        ] {
            line(
                label,
                String(
                    format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms; %.0f/s, %d failed", load.percentile(0.5), load.percentile(0.99),
                    load.latencies.max() ?? .nan,
                    load.perSecond, load.failed))
        }
    }

    if runs("stale") {
        try await Staleness.measure(
            writer: capabilitiesWithApple, tenant: tenant, appId: appId, customer: customer, vault: vault, configuration: config, line: line)
    }

    if runs("crash") {
        // Only the processes under test apply notifications now.
        capabilitiesWithApple.worker.stop()
        try await CrashRecovery.measure(
            simulator: simulator, tenant: tenant, webhookToken: app.notificationURLs.first { $0.environment == .sandbox }?.token ?? "",
            notifications: try await newSubscriptions(), postgres: postgres, seconds: max(seconds, 8), line: line)
    }

    // Only when asked for, against a formation (`deploy/local/ha test`): the commands fail its primary.
    if option("--only")?.split(separator: ",").contains("failover") == true {
        let events = [
            ("--failover-command", "pg_autoctl perform failover"), ("--kill-command", "kill -9 of the primary's postmaster"),
            ("--move-command", "citus_schema_move of the tenant's schema"),
        ].compactMap {
            flag, label in option(flag).map { Failover.Event(label: label, command: $0) }
        }
        try await Failover.measure(
            Failover.Settings(
                base: base, webhook: webhook, headers: headers, bundleId: bundleId, customerId: "bench-customer", renewal: bought, offer: offer,
                deadline: DatabaseDeadlines().unit),
            events: events, waitCommand: option("--wait-command"), simulator: simulator, tenant: tenant, postgres: postgres, http: http,
            seconds: seconds, line: line)
    }

    try await capabilitiesWithApple.tenants.delete(slug: slug, confirm: slug, actor: .cli)
    group.cancelAll()
}
try await http.shutdown().get()
if Failover.failed.load(ordering: .relaxed) { exit(1) }
