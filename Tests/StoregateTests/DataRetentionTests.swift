import Foundation
import Logging
import PostgresNIO
import Storegate
import StoregatePostgres
import Testing

/// Data-retention windows: the job deletes exactly what is older than each window of one tenant and keeps
/// the rest, never another tenant's rows; windows are set by RPC and manifest, checked naming the field,
/// audited; audit entries go only through the job; a rebuild of the figures is refused once events went.
@Suite struct DataRetentionTests {
    static func run(_ capabilities: Capabilities, _ query: PostgresQuery) async throws {
        try await capabilities.postgres.client.withConnection { conn in try await conn.run(query, logger: capabilities.postgres.logger) }
    }

    static func count(_ capabilities: Capabilities, _ query: PostgresQuery) async throws -> Int {
        try await capabilities.postgres.client.withConnection { conn in try await conn.first(query, as: Int.self, logger: capabilities.postgres.logger) ?? -1 }
    }

    /// Rows of every kind, each old (two hours) and recent (ten minutes), in the tenant's schema and its
    /// control rows: notifications processed and not, events with deliveries finished and pending, audit
    /// entries, console sessions ended and open.
    static func seed(_ capabilities: Capabilities, _ tenant: Tenant, appId: UUID, email: String) async throws {
        let s = try TenantSchema(validating: tenant.storageName).sql
        let endpoint = UUID()
        for (age, label) in [("2 hours", "old"), ("10 minutes", "recent")] {
            try await run(
                capabilities,
                """
                INSERT INTO \(unescaped: s).notifications
                    (notification_uuid, app_id, environment, notification_type, signed_payload, source, received_at, processed_at)
                VALUES (gen_random_uuid(), \(appId), 'Sandbox', 'TEST', \(label + "-processed"), 'webhook', now() - \(age)::interval, now()),
                       (gen_random_uuid(), \(appId), 'Sandbox', 'TEST', \(label + "-waiting"), 'webhook', now() - \(age)::interval, NULL)
                """)
            // Three events: one with a delivered delivery, one with a pending one, one with none.
            try await run(
                capabilities,
                """
                WITH n AS (UPDATE \(unescaped: s).event_sequence SET last = last + 3 RETURNING last)
                INSERT INTO \(unescaped: s).events (sequence, id, type, data, created_at)
                SELECT n.last - k, gen_random_uuid(), 'notification.received', \(#"{"label": ""# + label + #""}"#)::jsonb, now() - \(age)::interval
                FROM n, generate_series(0, 2) k
                """)
            try await run(
                capabilities,
                """
                INSERT INTO \(unescaped: s).webhook_deliveries (endpoint_id, event_sequence, status, created_at, finished_at)
                SELECT \(endpoint), seqs[1], 'delivered', now() - \(age)::interval, now() - \(age)::interval FROM
                    (SELECT array_agg(sequence ORDER BY sequence DESC) seqs FROM \(unescaped: s).events WHERE data ->> 'label' = \(label)) e
                UNION ALL
                SELECT \(endpoint), seqs[2], 'pending', now() - \(age)::interval, NULL FROM
                    (SELECT array_agg(sequence ORDER BY sequence DESC) seqs FROM \(unescaped: s).events WHERE data ->> 'label' = \(label)) e
                """)
            try await run(
                capabilities,
                "INSERT INTO storegate.audit_log (at, actor, tenant_id, action) VALUES (now() - \(age)::interval, 'test', \(tenant.id), \(label))")
        }
        let user = try await capabilities.consoleUsers.add(tenant: tenant, email: email, role: .admin, password: ConsoleTests.password, actor: Actor("test"))
        for (ended, hash) in [("2 hours", "ended-old"), ("10 minutes", "ended-recent"), ("-1 hour", "open")] {
            try await run(
                capabilities,
                """
                INSERT INTO storegate.console_sessions (secret_hash, user_id, csrf_token, created_at, expires_at)
                VALUES (\(Data((hash + tenant.slug).utf8)), \(user.user.id), 'csrf', now() - interval '3 hours', now() - \(ended)::interval)
                """)
        }
    }

    /// What is left of the seeded rows, by what they are.
    struct Left: Equatable, CustomStringConvertible {
        var payloads: [String] = []
        var notifications = 0
        var events: [String] = []
        var deliveries: [String] = []
        var audit: [String] = []
        var sessions: [String] = []
        var description: String {
            "payloads \(payloads) notifications \(notifications) events \(events) deliveries \(deliveries) audit \(audit) sessions \(sessions)"
        }
    }

    static func strings(_ conn: PostgresConnection, _ query: PostgresQuery) async throws -> [String] {
        var strings: [String] = []
        for try await value in try await conn.query(query, logger: Logger(label: "test")).decode(String.self) { strings.append(value) }
        return strings
    }

    static func left(_ capabilities: Capabilities, _ tenant: Tenant) async throws -> Left {
        let s = try TenantSchema(validating: tenant.storageName).sql
        return try await capabilities.postgres.client.withConnection { conn in
            let logger = capabilities.postgres.logger
            var left = Left()
            left.payloads = try await Self.strings(
                conn,
                "SELECT signed_payload FROM \(unescaped: s).notifications WHERE signed_payload IS NOT NULL ORDER BY 1")
            left.notifications = try await conn.first("SELECT count(*)::int FROM \(unescaped: s).notifications", as: Int.self, logger: logger) ?? -1
            left.events = try await Self.strings(
                conn,
                "SELECT data ->> 'label' FROM \(unescaped: s).events ORDER BY 1")
            left.deliveries = try await Self.strings(
                conn,
                """
                SELECT (e.data ->> 'label') || '-' || d.status FROM \(unescaped: s).webhook_deliveries d
                JOIN \(unescaped: s).events e ON e.sequence = d.event_sequence ORDER BY 1
                """)
            left.audit = try await Self.strings(
                conn,
                "SELECT action FROM storegate.audit_log WHERE tenant_id = \(tenant.id) AND actor = 'test' AND action IN ('old', 'recent') ORDER BY 1")
            left.sessions = try await Self.strings(
                conn,
                """
                SELECT convert_from(s.secret_hash, 'UTF8') FROM storegate.console_sessions s JOIN storegate.console_users u ON u.id = s.user_id
                WHERE u.tenant_id = \(tenant.id) ORDER BY 1
                """
            ).map { String($0.dropLast(tenant.slug.count)) }
            return left
        }
    }

    static let everything = Left(
        payloads: ["old-processed", "old-waiting", "recent-processed", "recent-waiting"], notifications: 4,
        events: ["old", "old", "old", "recent", "recent", "recent"], deliveries: ["old-delivered", "old-pending", "recent-delivered", "recent-pending"],
        audit: ["old", "recent"], sessions: ["ended-old", "ended-recent", "open"])

    static let hour: [DataRetention.Kind: Int] = Dictionary(uniqueKeysWithValues: DataRetention.Kind.allCases.map { ($0, 60) })

    /// Windows of an hour: the two-hour-old rows go (a processed payload is dropped, its row kept; an
    /// unprocessed one is kept whole; an old event goes with its pending delivery), the ten-minute-old stay,
    /// and tenant B, with the same rows and its default windows, keeps everything.
    @Test func theJobDeletesWhatIsOlderAndKeepsTheRest() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "keep-a", bundleId: "com.example.keep.a")
            let b = try await Fixtures.tenant(capabilities, slug: "keep-b", bundleId: "com.example.keep.b")
            try await Self.seed(capabilities, a.tenant.tenant, appId: a.appId, email: "ann@a.example")
            try await Self.seed(capabilities, b.tenant.tenant, appId: b.appId, email: "bob@b.example")
            #expect(try await Self.left(capabilities, a.tenant.tenant) == Self.everything)

            let windows = try await capabilities.dataRetention.set(tenant: a.tenant.tenant, Self.hour, actor: Actor("test"))
            #expect(windows.allSatisfy { $0.minutes == 60 && !$0.isDefault })
            let tenantA = try await capabilities.tenants.get(slug: "keep-a")
            #expect(tenantA.dataRetention.minutes(.events) == 60)

            let run = try await capabilities.dataRetention.run(tenant: tenantA)
            #expect(run.more == false)
            #expect(
                run.deleted == [.notificationPayloads: 1, .events: 3, .webhookDeliveries: 1, .auditEntries: 1, .consoleSessions: 1],
                "the old delivered delivery goes by its own window, the old pending one with its event")
            let left = try await Self.left(capabilities, tenantA)
            #expect(
                left
                    == Left(
                        payloads: ["old-waiting", "recent-processed", "recent-waiting"], notifications: 4, events: ["recent", "recent", "recent"],
                        deliveries: ["recent-delivered", "recent-pending"], audit: ["recent"], sessions: ["ended-recent", "open"]),
                "\(left)")
            #expect(try await Self.left(capabilities, b.tenant.tenant) == Self.everything, "tenant B's rows are not A's to delete")

            // Run again: nothing left to delete. What went is reported, and a rebuild of A's figures is refused.
            #expect(try await capabilities.dataRetention.run(tenant: tenantA).deleted.isEmpty)
            let report = try await capabilities.dataRetention.windows(tenant: tenantA)
            #expect(report.first { $0.kind == .events }?.deleted?.count == 3)
            #expect(try await capabilities.dataRetention.windows(tenant: b.tenant.tenant).allSatisfy { $0.deleted == nil && $0.isDefault })
            await #expect(throws: StoregateError.self) { try await capabilities.metrics.rebuild(tenant: tenantA) }
            try await capabilities.metrics.rebuild(tenant: b.tenant.tenant)
        }
    }

    /// The job runs from the queue: one per active tenant, in batches, and comes back when its budget ran out.
    @Test func theQueueRunsItInBatches() async throws {
        let settings = DataRetentionSettings(batchSize: 2, budget: .zero)
        try await TestDatabase.with(dataRetention: settings) { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "queue-a", bundleId: "com.example.queue.a")
            try await Self.seed(capabilities, a.tenant.tenant, appId: a.appId, email: "ann@q.example")
            _ = try await capabilities.dataRetention.set(tenant: a.tenant.tenant, Self.hour, actor: Actor("test"))
            #expect(await capabilities.worker.scheduleDataRetention() == 1)
            #expect(await capabilities.worker.scheduleDataRetention() == 0, "one job per tenant")
            // Each run deletes one batch of two, then goes on as a new run, due at once, until all is gone: the
            // worker claims it again each time (and counts each claim) until nothing is due.
            let runs = await capabilities.worker.runDue()
            #expect(runs > 1 && runs < 20, "\(runs) runs")
            #expect(try await Self.count(capabilities, "SELECT count(*)::int FROM storegate.jobs WHERE kind = 'data_retention' AND due_at <= now()") == 0)
            #expect(try await Self.count(capabilities, "SELECT count(*)::int FROM storegate.jobs WHERE kind = 'data_retention'") == 1, "rescheduled")
            let left = try await Self.left(capabilities, a.tenant.tenant)
            #expect(left.events == ["recent", "recent", "recent"] && left.audit == ["recent"] && left.sessions == ["ended-recent", "open"], "\(left)")
        }
    }

    /// `dataRetention.get` and `.set`: defaults, bounds refused naming the field, set kinds kept and others
    /// left, audited; tenant B sees and sets only its own.
    @Test func windowsOverRPC() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "rpc-a", bundleId: "com.example.rpc.a")
            let b = try await Fixtures.tenant(capabilities, slug: "rpc-b", bundleId: "com.example.rpc.b")
            try await TestServer.with(capabilities) { server in
                func windows(_ reply: [String: Any]) -> [String: [String: Any]] {
                    let list = (reply["result"] as? [String: Any])?["windows"] as? [[String: Any]] ?? []
                    return Dictionary(uniqueKeysWithValues: list.map { ($0["kind"] as? String ?? "", $0) })
                }
                let defaults = windows(try await server.call("dataRetention.get", apiKey: a.apiKey))
                #expect(defaults["notificationPayloads"]?["minutes"] as? Int == 259_200)
                #expect(defaults["events"]?["minutes"] as? Int == 576_000)
                #expect(defaults["webhookDeliveries"]?["minutes"] as? Int == 43_200)
                #expect(defaults["auditEntries"]?["minutes"] as? Int == 1_051_200)
                #expect(defaults["consoleSessions"]?["minutes"] as? Int == 43_200)
                #expect(defaults.values.allSatisfy { $0["isDefault"] as? Bool == true && $0["deleted"] as? Int == 0 })

                for (field, value) in [("events", 0), ("auditEntries", 52_560_001), ("consoleSessions", -5)] {
                    let refused = AuditTests.error(try await server.call("dataRetention.set", [field: value], apiKey: a.apiKey))
                    #expect(refused.code == -32602 && refused.field == field, "\(field) \(value): \(refused)")
                }
                let refused = AuditTests.error(try await server.call("dataRetention.set", ["event": 60], apiKey: a.apiKey))
                #expect(refused.code == -32602 && refused.field == "event")

                let set = windows(try await server.call("dataRetention.set", ["events": 1, "auditEntries": 52_560_000], apiKey: a.apiKey))
                #expect(set["events"]?["minutes"] as? Int == 1 && set["events"]?["isDefault"] as? Bool == false)
                #expect(set["auditEntries"]?["minutes"] as? Int == 52_560_000)
                #expect(set["webhookDeliveries"]?["minutes"] as? Int == 43_200 && set["webhookDeliveries"]?["isDefault"] as? Bool == true)
                let again = windows(try await server.call("dataRetention.set", ["webhookDeliveries": 90], apiKey: a.apiKey))
                #expect(again["events"]?["minutes"] as? Int == 1 && again["webhookDeliveries"]?["minutes"] as? Int == 90, "left out: kept")

                let audit = AuditTests.entries(try await server.call("audit.list", ["action": "dataRetention.set"], apiKey: a.apiKey))
                #expect(audit.count == 2)
                #expect((audit.last?["detail"] as? [String: Any])?["eventsMinutes"] as? String == "1")
                #expect(audit.first?["actor"] as? String == "apikey:" + a.tenant.apiKeyPrefix)

                let theirs = windows(try await server.call("dataRetention.get", apiKey: b.apiKey))
                #expect(theirs["events"]?["minutes"] as? Int == 576_000, "B's windows are B's own")
                _ = try await server.call("dataRetention.set", ["events": 5], apiKey: b.apiKey)
                #expect(windows(try await server.call("dataRetention.get", apiKey: a.apiKey))["events"]?["minutes"] as? Int == 1, "B set its own only")
                #expect(AuditTests.entries(try await server.call("audit.list", ["action": "dataRetention.set"], apiKey: b.apiKey)).count == 1)
            }
        }
    }

    /// A manifest's `dataRetention`: the kinds it names set, the others their defaults, audited, refused
    /// naming the field when out of range or misspelt, and left as they are when the manifest says nothing.
    @Test func windowsFromTheManifest() async throws {
        try await TestDatabase.with { capabilities, _ in
            let applier = ManifestApplier(capabilities: capabilities)
            func apply(_ retention: String) async throws -> ApplyResult {
                let yaml = "slug: kept\nname: Kept\n" + retention
                return try await applier.apply(
                    try TenantManifest.parse(yaml: yaml), baseDirectory: URL(fileURLWithPath: "/nonexistent"), environment: [:], actor: Actor("test"))
            }
            let applied = try await apply("dataRetention: {events: 1440, auditEntries: 100000}\n")
            #expect(applied.tenant.dataRetention == DataRetention([.events: 1440, .auditEntries: 100_000]))
            #expect(applied.changes.contains { $0.hasPrefix("tenant kept: data retention notificationPayloads 180 days (default), events 1 day,") })
            #expect(try await apply("dataRetention: {events: 1440, auditEntries: 100000}\n").changes.isEmpty, "applied again: no change")
            #expect(try await apply("").tenant.dataRetention == DataRetention([.events: 1440, .auditEntries: 100_000]), "left out: kept")
            #expect(try await apply("dataRetention: {events: 60}\n").tenant.dataRetention == DataRetention([.events: 60]), "others back to default")
            let tenant = try await capabilities.tenants.get(slug: "kept")
            #expect(
                try await capabilities.audit.list(tenant: tenant, filter: AuditFilter(action: "dataRetention.set"), before: nil, limit: nil).entries.count == 2)

            for (yaml, field) in [
                ("dataRetention: {events: 0}\n", "dataRetention.events"), ("dataRetention: {consoleSessions: 52560001}\n", "dataRetention.consoleSessions"),
                ("dataRetention: {evnts: 60}\n", "dataRetention.evnts"),
            ] {
                do {
                    _ = try await apply(yaml)
                    Issue.record("\(yaml) was applied")
                } catch let StoregateError.invalid(got, _) {
                    #expect(got == field)
                }
            }
            #expect(try await capabilities.tenants.get(slug: "kept").dataRetention == DataRetention([.events: 60]), "nothing half-written")
        }
    }

    /// The audit log refuses a DELETE but the job's: outside it, the trigger stops even the server's role.
    @Test func auditEntriesGoOnlyThroughTheJob() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "audit-keep", bundleId: "com.example.audit.keep")
            await #expect(throws: (any Error).self) {
                try await Self.run(capabilities, "DELETE FROM storegate.audit_log WHERE tenant_id = \(a.tenant.tenant.id)")
            }
            #expect(try await Self.count(capabilities, "SELECT count(*)::int FROM storegate.audit_log WHERE tenant_id = \(a.tenant.tenant.id)") > 0)
        }
    }
}
