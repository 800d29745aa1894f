import Foundation
import PostgresNIO
import Storegate

/// A customer's erasure, statement by statement, in the unit's transaction (docs/API.md "Erasure" says
/// what is deleted, what is kept and why). Apple signed the customer's appAccountToken into transactions,
/// renewal info, consumption answers and notifications: the decoded copies lose it, the signed copies go.
struct CustomerErasureRepository: CustomerErasureStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    func unlabelledNotifications(after: UUID?, limit: Int) async throws -> [(notificationUUID: UUID, signedPayload: String)] {
        try await scope.all(
            """
            SELECT notification_uuid, signed_payload FROM \(unescaped: schema).notifications
            WHERE original_transaction_id IS NULL AND processed_at IS NOT NULL AND signed_payload IS NOT NULL
              AND notification_uuid > coalesce(\(after), '00000000-0000-0000-0000-000000000000'::uuid)
            ORDER BY notification_uuid LIMIT \(limit)
            """
        ) { row in
            let (uuid, payload) = try row.decode((UUID, String).self)
            return (uuid, payload)
        }
    }

    func label(_ notifications: [(notificationUUID: UUID, originalTransactionId: String)]) async throws {
        guard !notifications.isEmpty else { return }
        try await scope.run(
            """
            UPDATE \(unescaped: schema).notifications n SET original_transaction_id = l.original
            FROM unnest(\(notifications.map(\.notificationUUID))::uuid[], \(notifications.map(\.originalTransactionId))::text[]) AS l(uuid, original)
            WHERE n.notification_uuid = l.uuid
            """)
    }

    func erase(customer: Customer, erasure: UUID) async throws -> CustomerErasure {
        let (c, token, customerId) = (customer.id, customer.appAccountToken, customer.customerId)
        let tokenText = token.uuidString.lowercased()
        let erasureId = PrefixedID.encode("ers_", erasure)
        // The customer's purchase series: those linked, owned, or carrying their token.
        let series = try await scope.all(
            """
            SELECT app_id, original_transaction_id FROM \(unescaped: schema).transactions WHERE customer = \(c) OR app_account_token = \(token)
            UNION SELECT app_id, value FROM \(unescaped: schema).account_links WHERE customer = \(c) AND kind = 'originalTransactionId'
            UNION SELECT app_id, original_transaction_id FROM \(unescaped: schema).subscriptions WHERE customer = \(c)
            """
        ) { try $0.decode((UUID, String).self) }
        let (apps, originals) = (series.map(\.0), series.map(\.1))
        let notifications = try await count(
            """
            UPDATE \(unescaped: schema).notifications n SET signed_payload = NULL
            WHERE n.signed_payload IS NOT NULL AND (
                (n.app_id, n.original_transaction_id) IN (SELECT * FROM unnest(\(apps)::uuid[], \(originals)::text[]))
                OR n.notification_uuid IN (SELECT notification_uuid FROM \(unescaped: schema).events WHERE customer = \(c) AND notification_uuid IS NOT NULL))
            """)
        let transactions = try await count(
            """
            UPDATE \(unescaped: schema).transactions t
            SET customer = NULL, app_account_token = NULL, signed_transaction = NULL, payload = t.payload - 'appAccountToken', updated_at = now()
            WHERE t.customer = \(c) OR t.app_account_token = \(token)
               OR (t.app_id, t.original_transaction_id) IN (SELECT * FROM unnest(\(apps)::uuid[], \(originals)::text[]))
            """)
        let subscriptions = try await count(
            """
            UPDATE \(unescaped: schema).subscriptions s SET customer = NULL, renewal = s.renewal - 'appAccountToken', updated_at = now()
            WHERE s.customer = \(c) OR (s.app_id, s.original_transaction_id) IN (SELECT * FROM unnest(\(apps)::uuid[], \(originals)::text[]))
            """)
        let requests = try await count(
            """
            UPDATE \(unescaped: schema).consumption_requests r SET customer = NULL, sent_body = r.sent_body - 'appAccountToken', updated_at = now()
            WHERE r.customer = \(c) OR (r.app_id, r.original_transaction_id) IN (SELECT * FROM unnest(\(apps)::uuid[], \(originals)::text[]))
            """)
        let outcomes = try await count("UPDATE \(unescaped: schema).refund_outcomes SET customer = NULL WHERE customer = \(c)")
        let events = try await count(
            """
            UPDATE \(unescaped: schema).events e SET customer = NULL, data = e.data - 'appAccountToken'
            WHERE e.customer = \(c) OR (e.type = 'purchase.created' AND e.data ->> 'appAccountToken' = \(tokenText))
            """)
        // Another customer's events naming this one as where an identifier or a purchase was moved from.
        try await scope.run(
            """
            UPDATE \(unescaped: schema).events SET data = jsonb_set(data, '{previousCustomerId}', to_jsonb(\(erasureId)::text))
            WHERE type IN ('account.transferred', 'purchase.transferred') AND data ->> 'previousCustomerId' = \(customerId)
            """)
        let member = "erased:" + erasure.uuidString.lowercased()
        try await scope.run(
            "UPDATE \(unescaped: schema).metrics_cohort_members SET member = \(member) WHERE member = \(c.uuidString.lowercased())")
        try await scope.run(
            "UPDATE \(unescaped: schema).metrics_member_months SET member = \(member) WHERE member = \(c.uuidString.lowercased())")
        // The audit log is append-only but for this rewrite (control migration 14's trigger). Any value of
        // an entry's detail that is the customer's id (`customerId`, a transfer's `from` or `to`) becomes the
        // erasure's: the entries still read as one person's.
        try await scope.run("SET LOCAL storegate.audit_rewrite = 'on'")
        let audited = try await count(
            """
            UPDATE storegate.audit_log SET detail = (
                SELECT jsonb_object_agg(key, CASE WHEN value = to_jsonb(\(customerId)::text) THEN to_jsonb(\(erasureId)::text) ELSE value END)
                FROM jsonb_each(detail))
            WHERE tenant_id = \(scope.tenantId) AND jsonb_path_exists(detail, '$.* ? (@ == $id)', jsonb_build_object('id', \(customerId)::text))
            """)
        try await scope.run("SET LOCAL storegate.audit_rewrite = 'off'")
        let deleted =
            try await scope.all(
                """
                WITH counted AS (
                    SELECT (SELECT count(*) FROM \(unescaped: schema).account_links WHERE customer = \(c)) AS links,
                           (SELECT count(*) FROM \(unescaped: schema).grants WHERE customer = \(c)) AS grants,
                           (SELECT count(*) FROM \(unescaped: schema).customer_notes WHERE customer = \(c)) AS notes,
                           (SELECT count(*) FROM \(unescaped: schema).customer_attributes WHERE customer = \(c)) AS attributes
                ), gone AS (
                    DELETE FROM \(unescaped: schema).customers WHERE id = \(c) RETURNING id
                )
                SELECT links, grants, notes, attributes FROM counted, gone
                """
            ) { try $0.decode((Int, Int, Int, Int).self) }.first ?? (0, 0, 0, 0)
        scope.changes.holdings(of: c)
        return CustomerErasure(
            deleted: true, erasureId: nil, transactions: transactions, subscriptions: subscriptions, notifications: notifications, events: events,
            refunds: requests + outcomes, auditEntries: audited, links: deleted.0, grants: deleted.1, notes: deleted.2, attributes: deleted.3)
    }

    /// The rows a statement changed.
    private func count(_ query: PostgresQuery) async throws -> Int {
        let counted = PostgresQuery(unsafeSQL: "WITH changed AS (\(query.sql) RETURNING 1) SELECT count(*) FROM changed", binds: query.binds)
        return try await scope.first(counted, as: Int.self) ?? 0
    }
}

extension PostgresTenantUnit {
    var customerErasure: any CustomerErasureStore { CustomerErasureRepository(scope: scope) }
}
