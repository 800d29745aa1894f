import Foundation
import PostgresNIO
import StoregatePostgres
import Testing

@testable import Storegate

/// The audit log read back: `audit.list` and the console's audit page show a tenant its own entries only,
/// filtered and paged; bad input is refused naming the field; and the server's role can only append to it.
@Suite struct AuditTests {
    /// Entries written as the domain writes them, in the tenant's log.
    static func write(_ capabilities: Capabilities, _ tenant: Tenant, _ entries: [(String, String, [String: String])]) async throws {
        try await capabilities.persistence.inTenant(tenant) { unit in
            for (actor, action, detail) in entries { try await unit.audit(Actor(actor), action, detail) }
        }
    }

    /// A response's entries are held until it is answered; one recorded later, by a task that outlived the
    /// response (task-local values reach it too), is written by its own caller, not dropped.
    @Test func anEntryRecordedAfterItsResponseIsStillWritten() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "audit-late", bundleId: "com.example.late")
            let batcher = AuditBatcher(persistence: capabilities.persistence)
            @Sendable func entry(_ when: String) -> AuditBatcher.Entry {
                .init(actor: "test", tenantId: a.tenant.tenant.id, action: "offer.sign", detail: ["when": when])
            }
            let (gate, open) = AsyncStream<Void>.makeStream()
            let (late, unwritten) = await DeferredAudits.run {
                try? await batcher.record(entry("during"))
                return Task {
                    for await _ in gate { break }
                    try await batcher.record(entry("after"))
                }
            }
            #expect(unwritten == nil)
            open.yield()
            try await late.value
            let signings = try await capabilities.persistence.inTenant(a.tenant.tenant, .read) { try await $0.auditLog() }
                .filter { $0.action == "offer.sign" }
            #expect(signings.map(\.detail).sorted() == [#"{"when": "after", "count": 1}"#, #"{"when": "during", "count": 1}"#])
        }
    }

    static func entries(_ reply: [String: Any]) -> [[String: Any]] {
        (reply["result"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
    }

    static func error(_ reply: [String: Any]) -> (code: Int?, field: String?, message: String) {
        let error = reply["error"] as? [String: Any]
        let data = error?["data"] as? [String: Any]
        return (error?["code"] as? Int, data?["field"] as? String, "\(data?["reason"] ?? "")")
    }

    static func sql(_ capabilities: Capabilities, _ query: PostgresQuery) async throws {
        try await capabilities.postgres.client.withConnection { conn in try await conn.run(query, logger: capabilities.postgres.logger) }
    }

    /// Tenant B's key and B's admin never see A's entries: not listed, not by A's customer, not below one of
    /// A's ids; and A's view is A's alone.
    @Test func aTenantSeesOnlyItsOwnEntries() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "audit-a", bundleId: "com.example.audit.a")
            let b = try await Fixtures.tenant(capabilities, slug: "audit-b", bundleId: "com.example.audit.b")
            try await TestServer.with(capabilities) { server in
                _ = try await server.call("accounts.ensure", ["customerId": "ann"], apiKey: a.apiKey)
                _ = try await server.call("accounts.ensure", ["customerId": "bob"], apiKey: b.apiKey)
                try await Self.write(capabilities, a.tenant.tenant, [("console:ann@example.org", "webhook.create", ["endpoint": "we_a"])])

                let mine = Self.entries(try await server.call("audit.list", apiKey: a.apiKey))
                let theirs = Self.entries(try await server.call("audit.list", apiKey: b.apiKey))
                #expect(mine.map { $0["action"] as? String } == ["webhook.create", "account.create", "apikey.issue", "app.add", "tenant.create"])
                #expect(mine.first { $0["action"] as? String == "account.create" }?["actor"] as? String == "apikey:" + a.tenant.apiKeyPrefix)
                #expect(theirs.map { $0["action"] as? String } == ["account.create", "apikey.issue", "app.add", "tenant.create"])
                #expect(theirs.allSatisfy { $0["customerId"] as? String != "ann" && "\($0["detail"] ?? "")".contains("we_a") == false })
                #expect(Set(mine.compactMap { $0["id"] as? Int }).isDisjoint(with: theirs.compactMap { $0["id"] as? Int }))

                let annFromB = Self.entries(try await server.call("audit.list", ["customerId": "ann"], apiKey: b.apiKey))
                #expect(annFromB.isEmpty, "another tenant's customer is nobody")
                let annFromA = Self.entries(try await server.call("audit.list", ["customerId": "ann"], apiKey: a.apiKey))
                #expect(annFromA.map { $0["action"] as? String } == ["account.create"])
                let newestOfA = try #require(mine.first?["id"] as? Int)
                let belowA = Self.entries(try await server.call("audit.list", ["before": newestOfA + 100], apiKey: b.apiKey))
                #expect(belowA.map { $0["id"] as? Int } == theirs.map { $0["id"] as? Int }, "a cursor past A's ids still reads B's own")
                let byActor = Self.entries(try await server.call("audit.list", ["actor": "console:ann@example.org"], apiKey: b.apiKey))
                #expect(byActor.isEmpty)

                // The console: B's admin sees B's log only; a viewer is refused.
                _ = try await capabilities.consoleUsers.add(
                    tenant: b.tenant.tenant, email: "ada@example.com", role: .admin, password: ConsoleTests.password, actor: Actor("test"))
                let admin = ConsoleClient(baseURL: server.baseURL)
                #expect(try await admin.signIn(tenant: "audit-b", email: "ada@example.com", password: ConsoleTests.password).status == 303)
                let page = try await admin.get("/console/audit")
                #expect(page.status == 200 && page.text.contains("<h1>Audit log</h1>") && page.text.contains("href=\"/console/audit\""))
                #expect(page.text.contains(">bob</a>") && !page.text.contains(">ann</a>") && !page.text.contains("we_a"), "\(page.text)")
                let filtered = try await admin.get("/console/audit?customer=ann")
                #expect(filtered.status == 200 && filtered.text.contains("No entries."))
            }
        }
    }

    /// Each filter alone and together, pages that follow `next` without a gap or a repeat, and the console's
    /// form and "Older" link over the same.
    @Test func filtersAndPages() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "audit-filters", bundleId: "com.example.audit.filters")
            let tenant = a.tenant.tenant
            try await Self.write(
                capabilities, tenant,
                [
                    ("console:ann@example.org", "webhook.create", ["endpoint": "we_1"]),
                    ("console:ann@example.org", "entitlement.grant", ["customerId": "c1", "grantId": "grt_1"]),
                    ("apikey:sg_live_ab12", "webhook.delete", ["endpoint": "we_1"]),
                    ("apikey:sg_live_ab12", "account.create", ["customerId": "c2"]),
                    ("cli:root", "webhook.update", ["endpoint": "we_2", "url": "https://example.org/hook"]),
                    ("apikey:sg_live_ab12", "order.lookup", ["customerId": "", "orderId": "MK5TTTVWJH"]),
                    ("console:ann@example.org", "entitlement.revokeGrant", ["customerId": "c1", "grantId": "grt_1"]),
                ])
            // One entry from January, written as the log would have been then.
            try await Self.sql(
                capabilities,
                """
                INSERT INTO storegate.audit_log (at, actor, tenant_id, action, detail)
                VALUES ('2026-01-15T10:00:00Z', 'cli:root', \(tenant.id), 'app.add', '{"bundleId":"com.example.old"}')
                """)
            try await TestServer.with(capabilities) { server in
                func actions(_ params: [String: Any]) async throws -> [String] {
                    Self.entries(try await server.call("audit.list", params, apiKey: a.apiKey)).map { $0["action"] as? String ?? "" }
                }
                #expect(try await actions(["actor": "console:ann@example.org"]) == ["entitlement.revokeGrant", "entitlement.grant", "webhook.create"])
                #expect(try await actions(["action": "webhook.create"]) == ["webhook.create"])
                #expect(try await actions(["action": "webhook."]) == ["webhook.update", "webhook.delete", "webhook.create"])
                #expect(try await actions(["action": "webhook"]) == [], "without its dot an action is exact")
                #expect(try await actions(["customerId": "c1"]) == ["entitlement.revokeGrant", "entitlement.grant"])
                #expect(try await actions(["customerId": "c1", "action": "entitlement.grant"]) == ["entitlement.grant"])
                #expect(try await actions(["actor": "apikey:sg_live_ab12", "action": "webhook."]) == ["webhook.delete"])
                #expect(try await actions(["from": "2026-01-01T00:00:00Z", "to": "2026-02-01T00:00:00Z"]) == ["app.add"])
                #expect(try await actions(["to": "2026-01-15T10:00:00Z"]) == [], "to is excluded")
                #expect(try await actions(["from": "2026-01-15T10:00:00Z", "to": "2026-01-15T10:00:01Z"]) == ["app.add"], "from is included")
                #expect(try await actions(["from": "2026-02-01T00:00:00Z"]).count == 10, "all but January's")

                let all = Self.entries(try await server.call("audit.list", apiKey: a.apiKey))
                #expect(all.count == 11, "the seven, January's, and the tenant, app and key of the fixture")
                let lookup = try #require(all.first { $0["action"] as? String == "order.lookup" })
                #expect(lookup["customerId"] == nil, "an empty customerId is no customer")
                #expect((lookup["detail"] as? [String: Any])?["orderId"] as? String == "MK5TTTVWJH", "the detail is a JSON object")
                let grant = try #require(all.first { $0["action"] as? String == "entitlement.grant" })
                #expect(grant["customerId"] as? String == "c1" && (grant["detail"] as? [String: Any])?["grantId"] as? String == "grt_1")

                // Pages of 3, following next: every entry once, newest first, and no next after the last.
                var paged: [Int] = []
                var before: Int?
                var pages = 0
                repeat {
                    let reply = try await server.call("audit.list", ["limit": 3].merging(before.map { ["before": $0] } ?? [:]) { $1 }, apiKey: a.apiKey)
                    let result = try #require(reply["result"] as? [String: Any])
                    paged += Self.entries(reply).compactMap { $0["id"] as? Int }
                    before = result["next"] as? Int
                    pages += 1
                } while before != nil && pages < 10
                #expect(paged == all.compactMap { $0["id"] as? Int } && pages == 4, "\(paged) in \(pages) pages")
                #expect(paged == paged.sorted(by: >))
                let filteredPage = try await server.call("audit.list", ["action": "webhook.", "limit": 2], apiKey: a.apiKey)
                let next = try #require((filteredPage["result"] as? [String: Any])?["next"] as? Int)
                #expect(try await actions(["action": "webhook.", "limit": 2, "before": next]) == ["webhook.create"])

                // The console's form sends the same filters; "Older" keeps them.
                _ = try await capabilities.consoleUsers.add(
                    tenant: tenant, email: "ada@example.com", role: .admin, password: ConsoleTests.password, actor: Actor("test"))
                let admin = ConsoleClient(baseURL: server.baseURL)
                #expect(try await admin.signIn(tenant: tenant.slug, email: "ada@example.com", password: ConsoleTests.password).status == 303)
                let webhooks = try await admin.get("/console/audit?action=webhook.&customer=&from=&to=")
                #expect(webhooks.status == 200 && webhooks.text.components(separatedBy: "class=\"audit-entry\"").count == 4, "\(webhooks.text)")
                let customer = try await admin.get("/console/audit?customer=c1")
                #expect(customer.text.contains("<a href=\"/console/customer?id=c1\">c1</a>") && customer.text.contains("grantId <code>grt_1</code>"))
                let january = try await admin.get("/console/audit?from=2026-01-15&to=2026-01-15")
                #expect(january.text.components(separatedBy: "class=\"audit-entry\"").count == 2 && january.text.contains("com.example.old"))
                let badDay = try await admin.get("/console/audit?from=yesterday")
                #expect(badDay.status == 400 && badDay.text.contains("from must be a date"))
                // Under app.: the fixture's app.add, January's, and 50 key imports: a page of 50, then "Older" with the same filter.
                try await Self.write(capabilities, tenant, (1...50).map { ("cli:root", "app.key.import", ["keyId": "KEY\($0)"]) })
                let newest = try await admin.get("/console/audit?action=app.")
                #expect(newest.text.components(separatedBy: "class=\"audit-entry\"").count == 51 && !newest.text.contains("id=\"newest-entries\""))
                let older = try #require(Self.older(newest.text))
                #expect(older.contains("action=app.") && older.contains("before="), "\(older)")
                let second = try await admin.get(older)
                #expect(second.status == 200 && second.text.components(separatedBy: "class=\"audit-entry\"").count == 3)
                #expect(second.text.components(separatedBy: "<code>app.add</code>").count == 3 && second.text.contains("id=\"newest-entries\""))
                #expect(!second.text.contains("id=\"older-entries\""))
            }
        }
    }

    /// The "Older" link's address on an audit page.
    static func older(_ html: String) -> String? {
        guard let end = html.range(of: "\" id=\"older-entries\""), let start = html[..<end.lowerBound].range(of: "href=\"", options: .backwards)
        else { return nil }
        return html[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Every refusal names its field, with the project's codes: -32602 for parameters.
    @Test func badParametersNameTheField() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "audit-params", bundleId: "com.example.audit.params")
            try await TestServer.with(capabilities) { server in
                for (params, field) in [
                    (["limit": 0], "limit"), (["limit": 201], "limit"), (["before": 0], "before"), (["action": "web hook"], "action"),
                    (["action": ""], "action"), (["actor": ""], "actor"), (["actor": String(repeating: "a", count: 301)], "actor"),
                    (["customerId": " "], "customerId"), (["from": "yesterday"], "from"), (["to": 5], "to"),
                    (["from": "2026-02-01T00:00:00Z", "to": "2026-01-01T00:00:00Z"], "to"), (["tenantId": "x"], "tenantId"),
                ] as [([String: Any], String)] {
                    let refused = Self.error(try await server.call("audit.list", params, apiKey: a.apiKey))
                    #expect(refused.code == -32602 && refused.field == field, "\(params): \(refused)")
                }
                let limit = Self.error(try await server.call("audit.list", ["limit": 201], apiKey: a.apiKey))
                #expect(limit.message.contains("200"), "\(limit)")
            }
        }
    }

    /// The server's role appends; UPDATE and DELETE fail unless the transaction says it is one of the two
    /// rewriters; TRUNCATE fails always.
    @Test func theLogIsAppendOnlyForTheServersRole() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "audit-append", bundleId: "com.example.audit.append")
            try await Self.write(capabilities, a.tenant.tenant, [("cli:root", "entitlement.grant", ["customerId": "erase-me"])])
            let logger = capabilities.postgres.logger
            for statement: PostgresQuery in [
                "UPDATE storegate.audit_log SET detail = '{}'", "DELETE FROM storegate.audit_log", "TRUNCATE storegate.audit_log",
            ] {
                do {
                    try await Self.sql(capabilities, statement)
                    Issue.record("\(statement.sql) passed")
                } catch {
                    #expect(String(reflecting: error).contains("append-only"), "\(statement.sql): \(String(reflecting: error))")
                }
            }
            let count = "SELECT count(*)::int FROM storegate.audit_log WHERE tenant_id = \(a.tenant.tenant.id)" as PostgresQuery
            let before = try await capabilities.postgres.client.withConnection { try await $0.first(count, as: Int.self, logger: logger) }
            #expect(before == 4, "tenant, app, key and the grant, all still there")

            // Customer erasure blanks an id, retention deletes: each in a transaction that says so.
            try await capabilities.postgres.client.withConnection { conn in
                try await conn.run("BEGIN", logger: logger)
                try await conn.run("SET LOCAL storegate.audit_rewrite = 'on'", logger: logger)
                try await conn.run(
                    "UPDATE storegate.audit_log SET detail = jsonb_set(detail, '{customerId}', '\"\"') WHERE detail->>'customerId' = 'erase-me'", logger: logger
                )
                try await conn.run("DELETE FROM storegate.audit_log WHERE action = 'app.add' AND tenant_id = \(a.tenant.tenant.id)", logger: logger)
                try await conn.run("COMMIT", logger: logger)
                // The setting was the transaction's: the next DELETE is refused again.
                do {
                    try await conn.run("DELETE FROM storegate.audit_log", logger: logger)
                    Issue.record("a DELETE after the rewriter's transaction passed")
                } catch {
                    #expect(String(reflecting: error).contains("append-only"))
                }
            }
            let entries = try await capabilities.persistence.inTenant(a.tenant.tenant, .read) { try await $0.auditLog() }
            #expect(entries.map(\.action) == ["tenant.create", "apikey.issue", "entitlement.grant"])
            #expect(entries.last?.customerId == nil && entries.last?.detail.contains("erase-me") == false)
        }
    }
}
