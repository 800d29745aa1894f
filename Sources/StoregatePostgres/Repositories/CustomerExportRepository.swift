import Foundation
import PostgresNIO
import Storegate

/// What the tenant's schema holds about one customer, for `customers.export`: one statement per
/// section, each a JSON array built by PostgreSQL. Signed copies (`signed_transaction`,
/// `signed_app_transaction`, `signed_payload`) are left out: the decoded payloads beside them carry the
/// same facts.
struct CustomerExportRepository: CustomerExportStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    func beginSnapshot() async throws {
        try await scope.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
    }

    func rows(customerId: String, most: Int) async throws -> CustomerExportRows? {
        guard
            let row = try await scope.all(
                "SELECT id, customer_id, app_account_token, created_at FROM \(unescaped: schema).customers WHERE customer_id = \(customerId)",
                { try $0.decode((UUID, String, UUID, Date).self) }
            ).first
        else { return nil }
        let customer = Customer(id: row.0, customerId: row.1, appAccountToken: row.2, createdAt: row.3)
        let ids = try await identifiers(customer.id)
        let c = customer.id
        let (tApps, tIds) = ids.of("transactionId")
        let (oApps, oIds) = ids.of("originalTransactionId")
        let (aApps, aIds) = ids.of("appTransactionId")
        let events = try await eventSequences(customer: c, transactions: (tApps, tIds), originals: (oApps, oIds), most: most)

        func json(_ query: PostgresQuery) async throws -> String { try await scope.first(query, as: String.self) ?? "[]" }

        return CustomerExportRows(
            customer: customer,
            links: try await json(
                """
                SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'bundleId', a.bundle_id, 'kind', x.kind, 'value', x.value, 'linkedAt', \(unescaped: at("x.linked_at"))
                ) ORDER BY x.linked_at, x.kind, x.value), '[]')::text
                FROM \(unescaped: schema).account_links x LEFT JOIN storegate.apps a ON a.id = x.app_id AND a.tenant_id = \(scope.tenantId) WHERE x.customer = \(c)
                """),
            transactions: try await json(
                """
                SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'bundleId', a.bundle_id, 'environment', x.environment, 'transactionId', x.transaction_id,
                    'originalTransactionId', x.original_transaction_id, 'appTransactionId', x.app_transaction_id, 'productId', x.product_id,
                    'productType', x.product_type, 'purchaseDate', \(unescaped: at("x.purchase_date")), 'expiresDate', \(unescaped: at("x.expires_date")),
                    'revocationDate', \(unescaped: at("x.revocation_date")), 'orderId', x.order_id, 'signedDate', \(unescaped: at("x.signed_date")),
                    'updatedAt', \(unescaped: at("x.updated_at")), 'payload', x.payload
                ) ORDER BY x.purchase_date, x.transaction_id), '[]')::text
                FROM \(unescaped: schema).transactions x LEFT JOIN storegate.apps a ON a.id = x.app_id AND a.tenant_id = \(scope.tenantId)
                WHERE (x.app_id, x.transaction_id) IN (SELECT * FROM unnest(\(tApps)::uuid[], \(tIds)::text[]))
                """),
            appTransactions: try await json(
                """
                SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'bundleId', a.bundle_id, 'environment', x.environment, 'appTransactionId', x.app_transaction_id,
                    'originalPurchaseDate', \(unescaped: at("x.original_purchase_date")), 'originalPlatform', x.original_platform,
                    'signedDate', \(unescaped: at("x.signed_date")), 'consentRescindedAt', \(unescaped: at("x.consent_rescinded_at")),
                    'updatedAt', \(unescaped: at("x.updated_at")), 'payload', x.payload
                ) ORDER BY x.app_transaction_id, x.environment), '[]')::text
                FROM \(unescaped: schema).app_transactions x LEFT JOIN storegate.apps a ON a.id = x.app_id AND a.tenant_id = \(scope.tenantId)
                WHERE (x.app_id, x.app_transaction_id) IN (SELECT * FROM unnest(\(aApps)::uuid[], \(aIds)::text[]))
                """),
            subscriptions: try await json(
                """
                SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'bundleId', a.bundle_id, 'environment', x.environment, 'originalTransactionId', x.original_transaction_id,
                    'subscriptionGroupIdentifier', x.subscription_group_identifier, 'status', x.status, 'productId', x.product_id,
                    'latestTransactionId', x.latest_transaction_id, 'purchaseDate', \(unescaped: at("x.purchase_date")),
                    'expiresDate', \(unescaped: at("x.expires_date")), 'autoRenewStatus', x.auto_renew_status,
                    'autoRenewProductId', x.auto_renew_product_id, 'inBillingRetry', x.in_billing_retry,
                    'gracePeriodExpiresDate', \(unescaped: at("x.grace_period_expires_date")), 'offerType', x.offer_type,
                    'offerIdentifier', x.offer_identifier, 'offerPeriod', x.offer_period, 'price', x.price, 'currency', x.currency,
                    'billingPlanType', x.billing_plan_type, 'renewal', x.renewal, 'commitment', x.commitment,
                    'signedDate', \(unescaped: at("x.signed_date")), 'updatedAt', \(unescaped: at("x.updated_at"))
                ) ORDER BY x.purchase_date, x.original_transaction_id), '[]')::text
                FROM \(unescaped: schema).subscriptions x LEFT JOIN storegate.apps a ON a.id = x.app_id AND a.tenant_id = \(scope.tenantId)
                WHERE x.customer = \(c) OR (x.app_id, x.original_transaction_id) IN (SELECT * FROM unnest(\(oApps)::uuid[], \(oIds)::text[]))
                """),
            renewalExtensions: try await json(
                """
                SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'requestIdentifier', x.request_identifier, 'bundleId', a.bundle_id, 'environment', x.environment,
                    'originalTransactionId', x.original_transaction_id, 'productId', x.product_id, 'extendByDays', x.extend_by_days,
                    'extendReasonCode', x.extend_reason_code, 'effectiveDate', \(unescaped: at("x.effective_date")), 'succeeded', x.succeeded,
                    'requestedAt', \(unescaped: at("x.requested_at"))
                ) ORDER BY x.requested_at, x.request_identifier), '[]')::text
                FROM \(unescaped: schema).renewal_extensions x LEFT JOIN storegate.apps a ON a.id = x.app_id AND a.tenant_id = \(scope.tenantId)
                WHERE (x.app_id, x.original_transaction_id) IN (SELECT * FROM unnest(\(oApps)::uuid[], \(oIds)::text[]))
                """),
            refundOutcomes: try await json(
                """
                SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'outcome', x.outcome, 'source', x.source, 'notificationUUID', x.notification_uuid, 'bundleId', a.bundle_id,
                    'environment', x.environment, 'transactionId', x.transaction_id, 'originalTransactionId', x.original_transaction_id,
                    'productId', x.product_id, 'productType', x.product_type, 'quantity', x.quantity, 'familyShared', x.family_shared,
                    'refundPercentage', x.refund_percentage, 'revocationType', x.revocation_type, 'revocationReason', x.revocation_reason,
                    'revocationDate', \(unescaped: at("x.revocation_date")), 'signedDate', \(unescaped: at("x.signed_date")),
                    'recordedAt', \(unescaped: at("x.recorded_at"))
                ) ORDER BY x.recorded_at, x.transaction_id), '[]')::text
                FROM \(unescaped: schema).refund_outcomes x LEFT JOIN storegate.apps a ON a.id = x.app_id AND a.tenant_id = \(scope.tenantId)
                WHERE x.customer = \(c) OR (x.app_id, x.transaction_id) IN (SELECT * FROM unnest(\(tApps)::uuid[], \(tIds)::text[]))
                   OR (x.app_id, x.original_transaction_id) IN (SELECT * FROM unnest(\(oApps)::uuid[], \(oIds)::text[]))
                """),
            consumptionRequests: try await json(
                """
                SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'id', x.id, 'bundleId', a.bundle_id, 'environment', x.environment, 'transactionId', x.transaction_id,
                    'originalTransactionId', x.original_transaction_id, 'productType', x.product_type, 'reason', x.reason,
                    'requestedAt', \(unescaped: at("x.requested_at")), 'deadline', \(unescaped: at("x.deadline")), 'status', x.status,
                    'statusReason', x.status_reason, 'apiVersion', x.api_version, 'sentBody', x.sent_body, 'sentAt', \(unescaped: at("x.sent_at")),
                    'attempts', x.attempts, 'lastError', x.last_error, 'updatedAt', \(unescaped: at("x.updated_at"))
                ) ORDER BY x.requested_at, x.id), '[]')::text
                FROM \(unescaped: schema).consumption_requests x LEFT JOIN storegate.apps a ON a.id = x.app_id AND a.tenant_id = \(scope.tenantId)
                WHERE x.customer = \(c) OR (x.app_id, x.transaction_id) IN (SELECT * FROM unnest(\(tApps)::uuid[], \(tIds)::text[]))
                """),
            consumptionFacts: try await json(
                """
                SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'bundleId', a.bundle_id, 'transactionId', x.transaction_id, 'facts', x.facts, 'reportedAt', \(unescaped: at("x.reported_at"))
                ) ORDER BY x.reported_at, x.transaction_id), '[]')::text
                FROM \(unescaped: schema).consumption_facts x LEFT JOIN storegate.apps a ON a.id = x.app_id AND a.tenant_id = \(scope.tenantId)
                WHERE (x.app_id, x.transaction_id) IN (SELECT * FROM unnest(\(tApps)::uuid[], \(tIds)::text[]))
                """),
            entitlementsEvented: try await json(
                """
                SELECT coalesce(jsonb_agg(jsonb_build_object('names', x.names, 'updatedAt', \(unescaped: at("x.updated_at")))), '[]')::text
                FROM \(unescaped: schema).entitlements_evented x WHERE x.customer = \(c)
                """),
            attributes: try await json(
                """
                SELECT coalesce(jsonb_agg(jsonb_build_object('key', x.key, 'value', x.value, 'updatedAt', \(unescaped: at("x.updated_at")))
                    ORDER BY x.key), '[]')::text
                FROM \(unescaped: schema).customer_attributes x WHERE x.customer = \(c)
                """),
            eventSequences: events,
            notifications: try await notifications(customer: c, events: events, transactions: (tApps, tIds), originals: (oApps, oIds), most: most),
            audit: try await audit(
                customerId: customer.customerId, identifiers: ids.rows.map(\.2) + [customer.appAccountToken.uuidString.lowercased()], most: most),
            webhookDeliveries: try await json(
                """
                SELECT coalesce(jsonb_agg(o ORDER BY s, endpoint), '[]')::text FROM (
                    SELECT jsonb_build_object(
                        'eventSequence', x.event_sequence, 'endpointId', x.endpoint_id, 'status', x.status, 'attempts', x.attempts,
                        'createdAt', \(unescaped: at("x.created_at")), 'finishedAt', \(unescaped: at("x.finished_at"))
                    ) AS o, x.event_sequence AS s, x.endpoint_id AS endpoint
                    FROM \(unescaped: schema).webhook_deliveries x
                    WHERE x.event_sequence = ANY(\(events)::bigint[]) ORDER BY x.event_sequence, x.endpoint_id LIMIT \(most + 1)
                ) d
                """)
        )
    }

    /// The sequence numbers of the customer's events, oldest first, at most `most + 1`: theirs (`events_customer`), and
    /// those of no customer that name one of their transactions or originalTransactionIds (what happened before a
    /// purchase was linked to them). The second reads the tenant's events of no customer: no index covers `data`.
    private func eventSequences(customer c: UUID, transactions t: ([UUID], [String]), originals o: ([UUID], [String]), most: Int) async throws -> [Int64] {
        try await scope.column(
            """
            (SELECT e.sequence FROM \(unescaped: schema).events e WHERE e.customer = \(c) ORDER BY e.sequence LIMIT \(most + 1))
            UNION
            (SELECT e.sequence FROM \(unescaped: schema).events e
             WHERE e.customer IS NULL
               AND ((e.app_id, e.data->>'transactionId') IN (SELECT * FROM unnest(\(t.0)::uuid[], \(t.1)::text[]))
                    OR (e.app_id, e.data->>'originalTransactionId') IN (SELECT * FROM unnest(\(o.0)::uuid[], \(o.1)::text[])))
             ORDER BY e.sequence LIMIT \(most + 1))
            ORDER BY 1 LIMIT \(most + 1)
            """, as: Int64.self)
    }

    /// Apple's notifications about the customer: those about their purchase series (recorded as each was
    /// processed, tenant migration 27), those their events came from, and the refund decisions about their
    /// transactions. The signed payload is left out.
    private func notifications(
        customer c: UUID, events: [Int64], transactions: ([UUID], [String]), originals: ([UUID], [String]), most: Int
    ) async throws -> String {
        try await scope.first(
            """
            SELECT coalesce(jsonb_agg(o ORDER BY r, u), '[]')::text FROM (
                SELECT jsonb_build_object(
                    'notificationUUID', x.notification_uuid, 'bundleId', a.bundle_id, 'environment', x.environment,
                    'notificationType', x.notification_type, 'subtype', x.subtype, 'signedDate', \(unescaped: at("x.signed_date")),
                    'receivedAt', \(unescaped: at("x.received_at")), 'processedAt', \(unescaped: at("x.processed_at")),
                    'processingError', x.processing_error, 'source', x.source
                ) AS o, x.received_at AS r, x.notification_uuid AS u
                FROM \(unescaped: schema).notifications x LEFT JOIN storegate.apps a ON a.id = x.app_id AND a.tenant_id = \(scope.tenantId)
                WHERE (x.app_id, x.original_transaction_id) IN (SELECT * FROM unnest(\(originals.0)::uuid[], \(originals.1)::text[]))
                   OR x.notification_uuid IN (
                    SELECT notification_uuid FROM \(unescaped: schema).events
                    WHERE sequence = ANY(\(events)::bigint[]) AND notification_uuid IS NOT NULL
                    UNION
                    SELECT notification_uuid FROM \(unescaped: schema).refund_outcomes
                    WHERE notification_uuid IS NOT NULL
                      AND (customer = \(c) OR (app_id, transaction_id) IN (SELECT * FROM unnest(\(transactions.0)::uuid[], \(transactions.1)::text[]))))
                ORDER BY x.received_at, x.notification_uuid LIMIT \(most + 1)
            ) n
            """, as: String.self) ?? "[]"
    }

    /// The tenant's audit entries about the customer, newest first: those whose `customerId` is theirs, and those
    /// with a member whose value is one of their identifiers (an extension of their subscription, facts reported
    /// for their transaction, a call to Apple about it). The second reads the tenant's whole log, newest first.
    private func audit(customerId: String, identifiers: [String], most: Int) async throws -> String {
        try await scope.first(
            """
            SELECT coalesce(jsonb_agg(o ORDER BY i DESC), '[]')::text FROM (
                SELECT jsonb_build_object(
                    'id', x.id, 'at', \(unescaped: at("x.at")), 'actor', x.actor, 'action', x.action, 'detail', x.detail
                ) AS o, x.id AS i
                FROM storegate.audit_log x
                WHERE x.tenant_id = \(scope.tenantId)
                  AND (x.detail->>'customerId' = \(customerId)
                       OR EXISTS (SELECT 1 FROM jsonb_each_text(x.detail) d WHERE d.value = ANY(\(identifiers)::text[])))
                ORDER BY x.id DESC LIMIT \(most + 1)
            ) a
            """, as: String.self) ?? "[]"
    }

    /// The customer's App Store identifiers, by kind: their account links, the transactions linked to them
    /// or to one of their originalTransactionIds, and their subscriptions.
    private func identifiers(_ c: UUID) async throws -> Identifiers {
        let rows = try await scope.all(
            """
            WITH linked AS (
                SELECT app_id, kind, value FROM \(unescaped: schema).account_links WHERE customer = \(c)
            ), mine AS (
                SELECT t.app_id, t.transaction_id, t.original_transaction_id, t.app_transaction_id FROM \(unescaped: schema).transactions t
                WHERE t.customer = \(c)
                   OR (t.app_id, t.original_transaction_id) IN (SELECT app_id, value FROM linked WHERE kind = 'originalTransactionId')
            )
            SELECT kind, app_id, value FROM linked
            UNION SELECT 'transactionId', app_id, transaction_id FROM mine
            UNION SELECT 'originalTransactionId', app_id, original_transaction_id FROM mine
            UNION SELECT 'appTransactionId', app_id, app_transaction_id FROM mine WHERE app_transaction_id IS NOT NULL
            UNION SELECT 'originalTransactionId', app_id, original_transaction_id FROM \(unescaped: schema).subscriptions WHERE customer = \(c)
            """
        ) { try $0.decode((String, UUID, String).self) }
        return Identifiers(rows: rows)
    }

    /// A timestamp column as the API writes dates: ISO 8601 in UTC, to the second.
    private func at(_ column: String) -> String { "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')" }

    struct Identifiers {
        let rows: [(String, UUID, String)]

        /// The apps and values of one kind, as two arrays to unnest side by side.
        func of(_ kind: String) -> ([UUID], [String]) {
            let matching = rows.filter { $0.0 == kind }
            return (matching.map(\.1), matching.map(\.2))
        }
    }
}

extension PostgresTenantUnit {
    var customerExports: any CustomerExportStore { CustomerExportRepository(scope: scope) }
}
