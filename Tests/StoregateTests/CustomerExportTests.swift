import AppStoreServer
import AppStoreSimulator
import Foundation
import Logging
import PostgresNIO
import Storegate
import StoregatePostgres
import Testing

/// `customers.export` (GDPR Art. 15): a customer with a full history exported, and every row of every
/// table that names them found by a scan of the catalog and checked against the export, so that a table
/// added later with customer data fails here until the export covers it or it is classified below.
@Suite struct CustomerExportTests {
    /// Tables that may name the customer yet hold nothing of theirs that the export lacks, each with why.
    static let holdsNoCustomerDataOfItsOwn: Set<String> = [
        // Metrics rollups keyed by a member (the customer's internal id, or a series' originalTransactionId): figures derived
        // from the events and transactions the export holds, nothing said about the customer beyond them.
        "metrics_cohort_members", "metrics_member_months",
        // The durable job queue: a job's `ref` names the work (a notification, a consumption request, an endpoint) until it is
        // done; the work itself is exported from its own table.
        "storegate.jobs",
        // Notifications acknowledged to Apple and not yet taken into the tenant's schema: transient, exported from
        // `notifications` once taken in.
        "storegate.notification_inbox",
    ]

    /// How each table's rows appear in the export: the table's key for a row (SQL over the row `x`), the export's list, and
    /// the same key read from one of its entries.
    struct Coverage: Sendable {
        let key: String
        let list: String
        let entryKey: @Sendable ([String: Any]) -> String?
    }

    static func text(_ member: String) -> @Sendable ([String: Any]) -> String? { { ($0[member] as? String) ?? ($0[member] as? Int).map(String.init) } }

    static func prefixed(_ prefix: String, _ member: String) -> @Sendable ([String: Any]) -> String? {
        { ($0[member] as? String).flatMap { PrefixedID.decode(prefix, $0) }?.uuidString.lowercased() }
    }

    static let coverage: [String: Coverage] = [
        "customers": Coverage(key: "x.customer_id", list: "customer", entryKey: text("customerId")),
        "account_links": Coverage(key: "x.value", list: "links", entryKey: text("value")),
        "transactions": Coverage(key: "x.transaction_id", list: "transactions", entryKey: text("transactionId")),
        "app_transactions": Coverage(key: "x.app_transaction_id", list: "appTransactions", entryKey: text("appTransactionId")),
        "subscriptions": Coverage(key: "x.original_transaction_id", list: "subscriptions", entryKey: text("originalTransactionId")),
        "renewal_extensions": Coverage(key: "x.request_identifier", list: "renewalExtensions", entryKey: text("requestIdentifier")),
        "refund_outcomes": Coverage(
            key: "x.outcome || ' ' || x.transaction_id", list: "refundOutcomes",
            entryKey: { e in (e["outcome"] as? String).flatMap { o in (e["transactionId"] as? String).map { o + " " + $0 } } }),
        "consumption_requests": Coverage(key: "x.id::text", list: "consumptionRequests", entryKey: text("id")),
        "consumption_facts": Coverage(key: "x.transaction_id", list: "consumptionFacts", entryKey: text("transactionId")),
        "grants": Coverage(key: "x.id::text", list: "grants", entryKey: prefixed("grt_", "grantId")),
        "entitlements_evented": Coverage(key: "'evented'", list: "entitlementsEvented", entryKey: { _ in "evented" }),
        "events": Coverage(key: "x.sequence::text", list: "events", entryKey: text("sequence")),
        "notifications": Coverage(key: "x.notification_uuid::text", list: "notifications", entryKey: text("notificationUUID")),
        "webhook_deliveries": Coverage(
            key: "x.event_sequence::text || ' ' || x.endpoint_id::text", list: "webhookDeliveries",
            entryKey: { e in (e["eventSequence"] as? Int).flatMap { s in (e["endpointId"] as? String).map { "\(s) \($0)" } } }),
        "customer_attributes": Coverage(key: "x.key", list: "attributes", entryKey: text("key")),
        "customer_notes": Coverage(key: "x.id::text", list: "notes", entryKey: prefixed("cn_", "noteId")),
        "storegate.audit_log": Coverage(key: "x.id::text", list: "audit", entryKey: text("id")),
    ]

    @Test func exportHoldsEveryRowOfEveryTableThatNamesTheCustomer() async throws {
        let receiver = WebhookReceiver()
        try await receiver.with { url in
            try await Storefront.with(slug: "export") { s in
                _ = try await s.result("webhooks.create", ["url": url])
                let history = try await Self.fullHistory(s)

                let schema = try TenantSchema(validating: s.tenant.tenant.storageName)
                let found = try await Self.scan(s, schema: schema, needles: history.needles)
                for table in [
                    "customers", "account_links", "transactions", "app_transactions", "subscriptions", "refund_outcomes", "consumption_requests", "grants",
                ]
                    + ["events", "customer_notes", "customer_attributes", "storegate.audit_log", "renewal_extensions", "consumption_facts"]
                {
                    #expect(found[table]?.isEmpty == false, "the scan finds the customer in \(table)")
                }

                let reply = try await s.result("customers.export", ["customerId": history.customerId])
                #expect(reply["formatVersion"] as? Int == 1)
                #expect((reply["truncated"] as? [String]) == [])
                for (table, keys) in found.sorted(by: { $0.key < $1.key }) where !Self.holdsNoCustomerDataOfItsOwn.contains(table) {
                    guard let coverage = Self.coverage[table] else {
                        Issue.record("\(table) holds \(keys.count) rows naming the customer, and the export does not cover it: add it, or classify it")
                        continue
                    }
                    let entries = (reply[coverage.list] as? [[String: Any]]) ?? (reply[coverage.list] as? [String: Any]).map { [$0] } ?? []
                    let exported = Set(entries.compactMap(coverage.entryKey))
                    #expect(Set(keys).isSubset(of: exported), "\(table): \(Set(keys).subtracting(exported)) are not in \(coverage.list)")
                }

                // Nothing of the bystander's; no signed copies; audited.
                let text = String(decoding: try JSONSerialization.data(withJSONObject: reply), as: UTF8.self)
                for needle in history.bystander { #expect(!text.contains(needle), "\(needle) is the bystander's") }
                #expect(!text.contains("signedTransaction") && !text.contains("signedPayload") && !text.contains("eyJ"), "no JWS in the export")
                let audit = try await s.capabilities.persistence.inTenant(s.tenant.tenant, .read) { try await $0.auditLog() }
                #expect(audit.contains { $0.action == "customer.export" && $0.customerId == history.customerId })
            }
        }
    }

    struct History {
        let customerId: String
        /// The customer's internal uuid, customerId, appAccountToken and App Store identifiers.
        let needles: [String]
        /// The other customer's identifiers, none of which the export may hold.
        let bystander: [String]
    }

    /// A customer with a subscription renewed and extended, their app transaction, four coins with a consumption request
    /// answered and a refund, a grant and a revoked one, attributes, notes and audit entries; and a bystander with coins of their own.
    static func fullHistory(_ s: Storefront) async throws -> History {
        let customerId = "export-subject-7c1f"
        let ensured = try await s.result("accounts.ensure", ["customerId": customerId])
        let token = try #require(UUID(uuidString: ensured["appAccountToken"] as? String ?? ""))
        let monthly = AppStoreServerAPIClientTests.subscription("subject-device", token: token)
        let original = try #require(try await s.simulator.purchase(monthly).transactionId)
        try await s.processed(1)
        let renewal = try #require(try await s.simulator.renew(originalTransactionId: original).transactionId)
        try await s.processed(2)
        _ = try await s.result(
            "subscriptions.extendRenewalDate",
            ["bundleId": Storefront.bundleId, "originalTransactionId": original, "extendByDays": 3, "extendReasonCode": 1])

        // Coins bought without the token, linked afterwards: what happened before the link names the customer by the
        // transaction only.
        let coinsId = try #require(try await s.simulator.purchase(RefundDecisioningTests.coins("subject-device")).transactionId)
        try await s.processed(3)
        _ = try await s.result(
            "accounts.linkTransaction",
            [
                "bundleId": Storefront.bundleId, "customerId": customerId,
                "signedTransaction": try #require(try await s.sim.client.getTransactionInfo(transactionId: coinsId).signedTransactionInfo),
            ])
        let appTransaction = try #require(try await s.sim.client.getAppTransactionInfo(anyTransactionId: coinsId).signedAppTransactionInfo)
        _ = try await s.result(
            "accounts.linkAppTransaction", ["bundleId": Storefront.bundleId, "customerId": customerId, "signedAppTransaction": appTransaction])
        _ = try await s.result("appTransactions.get", ["bundleId": Storefront.bundleId, "transactionId": coinsId])  // stored, as Apple answered
        try await s.simulator.requestRefund(transactionId: coinsId, reason: .unsatisfiedWithPurchase)
        try await s.processed(4)
        _ = try await s.result(
            "refunds.reportConsumption",
            [
                "bundleId": Storefront.bundleId, "transactionId": coinsId, "customerConsented": true, "deliveryStatus": "DELIVERED",
                "sampleContentProvided": false, "consumptionPercentage": 25_000, "refundPreference": "GRANT_PRORATED",
            ])
        try await s.eventually("the consumption answer sent") {
            ((try await s.result("refunds.pending", ["bundleId": Storefront.bundleId, "status": "sent"]))["requests"] as? [Any])?.isEmpty == false
        }
        _ = try await s.simulator.refund(transactionId: coinsId, percentage: 75_000)
        try await s.processed(5)

        _ = try await s.result("entitlements.grant", ["customerId": customerId, "entitlement": "premium", "days": 7, "reason": "outage"])
        let revoked = try await s.result("entitlements.grant", ["customerId": customerId, "entitlement": "extra", "days": 2, "reason": "goodwill"])
        _ = try await s.result("entitlements.revokeGrant", ["customerId": customerId, "grantId": revoked["grantId"] as? String ?? ""])
        _ = try await s.result("customers.setAttributes", ["customerId": customerId, "set": ["plan": "team", "crm": "0042"]])
        _ = try await s.result("customers.addNote", ["customerId": customerId, "text": "asked for a refund by mail"])

        // The bystander: coins of their own, linked to them.
        let other = try await s.result("accounts.ensure", ["customerId": "bystander-9d2e"])
        var theirs = RefundDecisioningTests.coins("bystander-device")
        theirs.appAccountToken = UUID(uuidString: other["appAccountToken"] as? String ?? "")
        let theirCoins = try #require(try await s.simulator.purchase(theirs).transactionId)
        try await s.processed(6)

        // Every webhook delivery done, so the scan sees them as they stay.
        try await s.eventually("webhook deliveries done") {
            try await s.capabilities.postgres.client.withConnection { conn in
                let schema = try TenantSchema(validating: s.tenant.tenant.storageName).sql
                return try await conn.first(
                    "SELECT count(*)::bigint FROM \(unescaped: schema).webhook_deliveries WHERE status = 'pending'", as: Int.self,
                    logger: s.capabilities.postgres.logger) == 0
            }
        }

        let ids = try await s.capabilities.postgres.client.withConnection { conn in
            let schema = try TenantSchema(validating: s.tenant.tenant.storageName).sql
            return try await Self.rows(
                conn,
                """
                SELECT c.id::text FROM \(unescaped: schema).customers c WHERE c.customer_id = \(customerId)
                UNION SELECT l.value FROM \(unescaped: schema).account_links l JOIN \(unescaped: schema).customers c ON c.id = l.customer
                    WHERE c.customer_id = \(customerId)
                UNION SELECT t.app_transaction_id FROM \(unescaped: schema).transactions t WHERE t.transaction_id = ANY(\([original, renewal, coinsId]))
                    AND t.app_transaction_id IS NOT NULL
                """, logger: s.capabilities.postgres.logger
            ) { try $0.decode(String.self) }
        }
        let needles = [customerId, token.uuidString.lowercased(), original, renewal, coinsId] + ids
        return History(customerId: customerId, needles: Array(Set(needles)), bystander: ["bystander-9d2e", theirCoins])
    }

    /// For every table of the tenant's schema and of the control schema, the rows (by the table's coverage key, or the
    /// row's text when it has none) where any column, as text, holds one of `needles` as a whole word.
    static func scan(_ s: Storefront, schema: TenantSchema, needles: [String]) async throws -> [String: [String]] {
        let logger = s.capabilities.postgres.logger
        let word = "(^|[^A-Za-z0-9_-])(" + needles.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|") + ")($|[^A-Za-z0-9_-])"
        return try await s.capabilities.postgres.client.withConnection { conn in
            let columns = try await Self.rows(
                conn,
                """
                SELECT c.table_schema::text, c.table_name::text, c.column_name::text FROM information_schema.columns c
                JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
                WHERE c.table_schema IN (\(schema.name), 'storegate') ORDER BY 1, 2, c.ordinal_position
                """, logger: logger
            ) { try $0.decode((String, String, String).self) }
            var found: [String: [String]] = [:]
            for table in Dictionary(grouping: columns, by: { "\($0.0).\($0.1)" }).values {
                let (tableSchema, name) = (table[0].0, table[0].1)
                let label = tableSchema == "storegate" ? "storegate." + name : name
                let condition = table.map { "\"\($0.2)\"::text ~ $1" }.joined(separator: " OR ")
                let key = coverage[label]?.key ?? "x::text"
                let sql = "SELECT (\(key))::text FROM \"\(tableSchema)\".\"\(name)\" x WHERE \(condition)"
                var bindings = PostgresBindings()
                bindings.append(word)
                let keys = try await Self.rows(conn, PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) { try $0.decode(String.self) }
                if !keys.isEmpty { found[label] = keys }
            }
            return found
        }
    }

    static func rows<T>(_ conn: PostgresConnection, _ query: PostgresQuery, logger: Logger, _ make: (PostgresRow) throws -> T) async throws -> [T] {
        var out: [T] = []
        for try await row in try await conn.query(query, logger: logger) { out.append(try make(row)) }
        return out
    }

    /// Tenant B's key cannot export tenant A's customer; the same customerId in both tenants exports each its own; an unknown
    /// customer is refused naming `customerId`.
    @Test func eachTenantExportsItsOwnCustomer() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "export-a", bundleId: "com.example.ea")
            let b = try await Fixtures.tenant(capabilities, slug: "export-b", bundleId: "com.example.eb")
            try await TestServer.with(capabilities) { server in
                let ensured = try await server.call("accounts.ensure", ["customerId": "dee"], apiKey: a.apiKey)
                let tokenA = try #require((ensured["result"] as? [String: Any])?["appAccountToken"] as? String)
                _ = try await server.call("customers.setAttributes", ["customerId": "dee", "set": ["plan": "a-only"]], apiKey: a.apiKey)
                _ = try await server.call("customers.addNote", ["customerId": "dee", "text": "A's note"], apiKey: a.apiKey)

                let foreign = try await server.call("customers.export", ["customerId": "dee"], apiKey: b.apiKey)
                #expect(CustomerProfileTests.error(foreign).code == 1004)
                #expect(CustomerProfileTests.error(foreign).field == "customerId")

                _ = try await server.call("accounts.ensure", ["customerId": "dee"], apiKey: b.apiKey)
                _ = try await server.call("customers.setAttributes", ["customerId": "dee", "set": ["plan": "b-only"]], apiKey: b.apiKey)
                let exportA = try #require(try await server.call("customers.export", ["customerId": "dee"], apiKey: a.apiKey)["result"] as? [String: Any])
                let exportB = try #require(try await server.call("customers.export", ["customerId": "dee"], apiKey: b.apiKey)["result"] as? [String: Any])
                #expect((exportA["customer"] as? [String: Any])?["appAccountToken"] as? String == tokenA)
                #expect((exportB["customer"] as? [String: Any])?["appAccountToken"] as? String != tokenA)
                #expect((exportA["attributes"] as? [[String: Any]])?.map { $0["value"] as? String } == ["a-only"])
                #expect((exportB["attributes"] as? [[String: Any]])?.map { $0["value"] as? String } == ["b-only"])
                #expect((exportA["notes"] as? [Any])?.count == 1)
                #expect((exportB["notes"] as? [Any])?.count == 0, "B's dee has none of A's notes")
                #expect((exportA["audit"] as? [[String: Any]])?.allSatisfy { ($0["detail"] as? [String: Any])?["customerId"] as? String == "dee" } == true)
                let logB = try await capabilities.persistence.inTenant(b.tenant.tenant, .read) { try await $0.auditLog() }
                let auditB = Set(((exportB["audit"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? Int })
                #expect(!auditB.isEmpty && auditB.isSubset(of: Set(logB.map { Int($0.id) })), "B's export holds B's audit entries only")

                let bounded = try await capabilities.customerExports.export(tenant: a.tenant.tenant, customerId: "dee", actor: Actor("test"), most: 1)
                #expect(bounded.truncated == ["audit"] && bounded.audit.count == 1, "a list past the bound is cut and named")

                let unknown = try await server.call("customers.export", ["customerId": "nobody"], apiKey: a.apiKey)
                #expect(CustomerProfileTests.error(unknown).code == 1004)
                #expect(CustomerProfileTests.error(unknown).field == "customerId")
            }
        }
    }
}
