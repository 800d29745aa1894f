import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PostgresNIO
import Storegate
import StoregatePostgres
import Synchronization

/// Storegate on a primary and a standby (`deploy/local/ha`) under load, while the primary fails: once by
/// `pg_autoctl perform failover`, once by `kill -9` of its postmaster; or on Citus (`deploy/local/citus`)
/// while the tenant's schema moves to another worker (`citus_schema_move`). The load is what a deployment
/// sees: Apple's notifications (each distinct), RPC writes (`accounts.ensure` of a new customer each),
/// status reads and offer signing. Afterwards every notification answered 200 must be stored and
/// applied, and every write answered without error must be there. Printed: the time without service
/// around each event (the longest gap between answers, for the kind of request that reaches the database
/// with the longest, each kind's beside it), the slowest request (against the unit deadline), the counts.
enum Failover {
    enum Kind: String, CaseIterable {
        case notification, write, read, signing
        /// Whether an answer needs the database (signing needs only its cached key).
        var reachesDatabase: Bool { self != .signing }
    }

    struct Outcome: Sendable {
        let kind: Kind
        let started: ContinuousClock.Instant
        let ended: ContinuousClock.Instant
        let ok: Bool
        /// The notification's UUID or the customer's id, for the checks afterwards.
        let key: String?
    }

    struct Event {
        let label: String
        let command: String
    }

    struct Settings: Sendable {
        let base: String
        let webhook: String
        let headers: HTTPHeaders
        let bundleId: String
        let customerId: String
        /// A renewal of the customer's subscription, as the simulator would sign it; each post changes its IDs.
        let renewal: JWSTransactionDecodedPayload
        let offer: String
        let deadline: Duration
    }

    static func measure(
        _ settings: Settings, events: [Event], waitCommand: String?, simulator: AppStoreSimulator, tenant: Tenant, postgres: DatabaseClient,
        http: HTTPClient, seconds: Double, line: (String, String) -> Void
    ) async throws {
        let recorder = Recorder()
        let origin = ContinuousClock.now
        func at(_ instant: ContinuousClock.Instant) -> Double { (instant - origin) / .seconds(1) }

        @Sendable func post(_ url: String, _ body: String, headers: HTTPHeaders, rpc: Bool) async -> Bool {
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers = headers
            request.body = .bytes(ByteBuffer(string: body))
            do {
                let response = try await http.execute(request, timeout: .seconds(60))
                let bytes = try await response.body.collect(upTo: 1 << 20)
                return response.status == .ok && !(rpc && Load.containsError(bytes))
            } catch {
                return false
            }
        }
        @Sendable func rpc(_ method: String, _ params: String) -> String { #"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params),"id":1}"# }
        @Sendable func notification() throws -> (uuid: String, body: String) {
            let n = recorder.serial.add(1, ordering: .relaxed).newValue
            var renewed = settings.renewal
            renewed.originalTransactionId = String(6_000_000_000_000_000 + n % 500)
            renewed.transactionId = String(7_000_000_000_000_000 + n)
            let uuid = UUID().uuidString.lowercased()
            let payload = ResponseBodyV2DecodedPayload(
                notificationType: .didRenew, notificationUUID: uuid,
                data: NotificationData(
                    environment: .sandbox, appAppleId: 1, bundleId: settings.bundleId, bundleVersion: "1",
                    signedTransactionInfo: try simulator.ca.sign(renewed), status: .active),
                version: "2.0", signedDate: Timestamp(Date()))
            return (uuid, #"{"signedPayload":"\#(try simulator.ca.sign(payload))"}"#)
        }
        @Sendable func loop(_ kind: Kind, _ one: @Sendable () async throws -> (ok: Bool, key: String?)) async {
            while !recorder.stop.load(ordering: .relaxed) {
                let started = ContinuousClock.now
                let (ok, key) = (try? await one()) ?? (false, nil)
                let outcome = Outcome(kind: kind, started: started, ended: .now, ok: ok, key: key)
                recorder.outcomes.withLock { $0.append(outcome) }
                if !ok { try? await Task.sleep(for: .milliseconds(20)) }
            }
        }

        let json = HTTPHeaders([("Content-Type", "application/json")])
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        await loop(.notification) {
                            let (uuid, body) = try notification()
                            return (await post(settings.webhook, body, headers: json, rpc: false), uuid)
                        }
                    }
                }
                for _ in 0..<2 {
                    group.addTask {
                        await loop(.write) {
                            let customerId = "failover-" + UUID().uuidString.lowercased()
                            return (
                                await post(
                                    settings.base + "/rpc", rpc("accounts.ensure", #"{"customerId":"\#(customerId)"}"#), headers: settings.headers, rpc: true),
                                customerId
                            )
                        }
                    }
                    group.addTask {
                        await loop(.read) {
                            (
                                await post(
                                    settings.base + "/rpc", rpc("subscriptions.status", #"{"customerId":"\#(settings.customerId)"}"#),
                                    headers: settings.headers, rpc: true), nil
                            )
                        }
                    }
                }
                group.addTask {
                    await loop(.signing) {
                        (await post(settings.base + "/rpc", rpc("offers.signPromotionalJWS", settings.offer), headers: settings.headers, rpc: true), nil)
                    }
                }
            }
        }

        // Each event after some seconds of load, the formation healthy again before the next.
        var happened: [(Event, ContinuousClock.Instant)] = []
        try await Task.sleep(for: .seconds(3))
        for event in events {
            let when = ContinuousClock.now
            let status = await shell(event.command, environment: ["STOREGATE_BENCH_SCHEMA": tenant.storageName])
            let took = String(format: "%.1f s", (ContinuousClock.now - when) / .seconds(1))
            line("  \(event.label) at \(String(format: "%.1f", at(when))) s", status == 0 ? "done in \(took)" : "exited \(status) after \(took)  FAILED")
            // A failover or move that did not happen measures nothing: the run fails.
            if status != 0 { failed.store(true, ordering: .relaxed) }
            happened.append((event, when))
            try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
            if let waitCommand { _ = await shell(waitCommand) }
        }
        try await Task.sleep(for: .seconds(2))
        recorder.stop.store(true, ordering: .relaxed)
        await load.value
        let all = recorder.outcomes.withLock { $0 }.sorted { $0.ended < $1.ended }

        for (event, when) in happened {
            // The longest wait, from the event on, for an answer of each kind of request that reaches the
            // database (reads may still be answered by a node that no longer takes writes); the worst is the
            // time without service.
            func longestGap(_ kind: Kind) -> Duration {
                let answered = all.filter { $0.ok && $0.kind == kind && $0.ended >= when - .seconds(1) }.map(\.ended)
                var gap = Duration.zero
                var last = when
                for ended in answered where ended > last {
                    gap = max(gap, ended - last)
                    last = ended
                    if ended > when + .milliseconds(Int64(seconds * 1000)) { break }
                }
                return gap
            }
            let gaps = Kind.allCases.filter(\.reachesDatabase).map { ($0, longestGap($0)) }
            let gap = gaps.map(\.1).max() ?? .zero
            let each = gaps.map { String(format: "%@ %.2f", $0.0.rawValue, $0.1 / .seconds(1)) }.joined(separator: ", ")
            let failed = all.filter { !$0.ok && $0.ended >= when && $0.started <= when + .milliseconds(Int64(seconds * 1000)) }
            let byKind = Kind.allCases.map { kind in "\(failed.filter { $0.kind == kind }.count) \(kind.rawValue)" }.joined(separator: ", ")
            line(
                "  \(event.label): time without service",
                String(format: "%.2f s (target < 15 s; %@); failed meanwhile: %@", gap / .seconds(1), each, byKind))
        }
        for kind in Kind.allCases {
            let mine = all.filter { $0.kind == kind }
            let slowest = mine.map { $0.ended - $0.started }.max() ?? .zero
            line(
                "  \(kind.rawValue)s",
                String(
                    format: "%d answered, %d failed; slowest %.2f s (deadline %.0f s)", mine.filter(\.ok).count, mine.filter { !$0.ok }.count,
                    slowest / .seconds(1), settings.deadline / .seconds(1)))
        }

        // Every acknowledged notification stored and applied; every write answered is there.
        let schema = try TenantSchema(validating: tenant.storageName).sql
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let acknowledged = all.filter { $0.kind == .notification && $0.ok }.compactMap(\.key).compactMap(UUID.init(uuidString:))
        let written = all.filter { $0.kind == .write && $0.ok }.compactMap(\.key)
        @Sendable func applied() async throws -> (stored: Int, applied: Int) {
            try await postgres.withConnection { conn in
                let stored =
                    try await conn.first(
                        """
                        SELECT count(*)::int FROM (
                            SELECT notification_uuid FROM \(unescaped: schema).notifications WHERE notification_uuid = ANY(\(acknowledged))
                            UNION
                            SELECT notification_uuid FROM storegate.notification_inbox WHERE tenant_id = \(tenant.id) AND notification_uuid = ANY(\(acknowledged))
                        ) n
                        """, as: Int.self, logger: logger) ?? 0
                let applied =
                    try await conn.first(
                        """
                        SELECT count(*)::int FROM \(unescaped: schema).notifications
                        WHERE notification_uuid = ANY(\(acknowledged)) AND processed_at IS NOT NULL
                        """, as: Int.self, logger: logger) ?? 0
                return (stored, applied)
            }
        }
        let settled = ContinuousClock.now
        var counts = try await applied()
        while counts.applied < acknowledged.count, ContinuousClock.now - settled < .seconds(120) {
            try await Task.sleep(for: .milliseconds(200))
            counts = try await applied()
        }
        let found = try await postgres.withConnection { conn in
            try await conn.first(
                "SELECT count(*)::int FROM \(unescaped: schema).customers WHERE customer_id = ANY(\(written))", as: Int.self, logger: logger) ?? 0
        }
        line(
            "  notifications acknowledged (200)",
            "\(acknowledged.count): \(counts.stored) stored, \(counts.applied) applied "
                + String(format: "(%.1f s after the load)", (ContinuousClock.now - settled) / .seconds(1))
                + (counts.applied == acknowledged.count ? "" : "  LOST: \(acknowledged.count - counts.applied)"))
        line("  writes answered (accounts.ensure)", "\(written.count): \(found) there" + (found == written.count ? "" : "  LOST: \(written.count - found)"))
        if counts.applied != acknowledged.count || found != written.count {
            failed.store(true, ordering: .relaxed)
            // Which: when each was answered, for finding where it went.
            let present = try await postgres.withConnection { conn in
                var uuids: Set<UUID> = []
                let rows = try await conn.query(
                    """
                    SELECT notification_uuid FROM \(unescaped: schema).notifications WHERE notification_uuid = ANY(\(acknowledged))
                    UNION SELECT notification_uuid FROM storegate.notification_inbox WHERE notification_uuid = ANY(\(acknowledged))
                    """, logger: logger)
                for try await uuid in rows.decode(UUID.self) { uuids.insert(uuid) }
                return uuids
            }
            for outcome in all where outcome.kind == .notification && outcome.ok {
                guard let key = outcome.key, let uuid = UUID(uuidString: key), !present.contains(uuid) else { continue }
                line("  lost: notification \(key)", String(format: "sent at %.3f s, answered 200 at %.3f s", at(outcome.started), at(outcome.ended)))
            }
        }
    }

    /// What the load's tasks share.
    final class Recorder: Sendable {
        let outcomes = Mutex<[Outcome]>([])
        let stop = Atomic(false)
        let serial = Atomic(0)
    }

    /// Set when something acknowledged was lost: the bench then exits non-zero.
    static let failed = Atomic(false)

    /// Runs `command` with bash, its output passed through; returns its exit status. Waited for without
    /// holding one of the (two) threads that run the load.
    static func shell(_ command: String, environment: [String: String] = [:]) async -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return await withCheckedContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(returning: -1)
            }
        }
    }
}
