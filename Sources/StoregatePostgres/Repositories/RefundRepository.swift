import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// Refund outcomes, consumption requests, reported consumption facts and refund policies, in the tenant's schema.
struct RefundRepository: RefundStore {
    let scope: TenantScope
    var schema: String { scope.sql }

    // MARK: Outcomes

    @discardableResult
    func record(_ o: RefundOutcome) async throws -> Bool {
        try await scope.first(
            """
            INSERT INTO \(unescaped: schema).refund_outcomes
                (notification_uuid, app_id, environment, outcome, transaction_id, original_transaction_id, product_id, product_type, quantity, family_shared,
                 refund_percentage, revocation_type, revocation_reason, revocation_date, source, customer, signed_date)
            VALUES (\(o.notificationUUID), \(o.appId), \(o.environment.rawValue), \(o.outcome.rawValue), \(o.transactionId), \(o.originalTransactionId),
                    \(o.productId), \(o.productType.rawValue), \(o.quantity), \(o.familyShared), \(o.refundPercentage), \(o.revocationType?.rawValue),
                    \(o.revocationReason.map { Int($0.rawValue) }), \(o.revocationDate), \(o.source.rawValue), \(o.customer), \(o.signedDate))
            ON CONFLICT DO NOTHING RETURNING 1
            """, as: Int.self) != nil
    }

    static let outcomeColumns = """
        o.notification_uuid, o.app_id, o.environment, o.outcome, o.transaction_id, o.original_transaction_id, o.product_id, o.product_type, o.quantity,
        o.family_shared, o.refund_percentage, o.revocation_type, o.revocation_reason, o.revocation_date, o.source, coalesce(o.customer, l.customer),
        o.signed_date, o.recorded_at
        """

    func outcomes(appId: UUID?, transactionId: String?, customer: UUID?, limit: Int) async throws -> [RefundOutcome] {
        try await scope.all(
            """
            SELECT \(unescaped: Self.outcomeColumns) FROM \(unescaped: schema).refund_outcomes o
            LEFT JOIN \(unescaped: schema).account_links l
              ON l.app_id = o.app_id AND l.kind = 'originalTransactionId' AND l.value = o.original_transaction_id
            WHERE (\(appId)::uuid IS NULL OR o.app_id = \(appId)) AND (\(transactionId)::text IS NULL OR o.transaction_id = \(transactionId))
              AND (\(customer)::uuid IS NULL OR coalesce(o.customer, l.customer) = \(customer))
            ORDER BY o.signed_date DESC NULLS LAST, o.recorded_at DESC LIMIT \(limit)
            """
        ) { row -> RefundOutcome in
            let r = try row.decode(
                (UUID?, UUID, String, String, String, String, String, String, Int, Bool, Int?, String?, Int?, Date?, String, UUID?, Date?, Date).self)
            return RefundOutcome(
                notificationUUID: r.0, appId: r.1, environment: AppStoreEnvironment(rawValue: r.2), outcome: NotificationTypeV2(rawValue: r.3),
                transactionId: r.4,
                originalTransactionId: r.5, productId: r.6, productType: ProductType(rawValue: r.7), quantity: r.8, familyShared: r.9, refundPercentage: r.10,
                revocationType: r.11.map(RevocationType.init(rawValue:)), revocationReason: r.12.map { RevocationReason(rawValue: Int32($0)) },
                revocationDate: r.13,
                source: RefundOutcome.Source(rawValue: r.14) ?? .notification, customer: r.15, signedDate: r.16, recordedAt: r.17)
        }
    }

    func refundCount(customer: UUID) async throws -> Int {
        try await scope.first(
            """
            SELECT count(DISTINCT o.transaction_id)::bigint FROM \(unescaped: schema).refund_outcomes o
            LEFT JOIN \(unescaped: schema).account_links l
              ON l.app_id = o.app_id AND l.kind = 'originalTransactionId' AND l.value = o.original_transaction_id
            WHERE o.outcome = 'REFUND' AND coalesce(o.customer, l.customer) = \(customer)
              AND NOT EXISTS (SELECT 1 FROM \(unescaped: schema).refund_outcomes r
                              WHERE r.app_id = o.app_id AND r.transaction_id = o.transaction_id AND r.outcome = 'REFUND_REVERSED' AND r.signed_date > o.signed_date)
            """, as: Int.self) ?? 0
    }

    // MARK: Consumption requests

    @discardableResult
    func open(_ r: RefundRequest) async throws -> Bool {
        try await scope.first(
            """
            INSERT INTO \(unescaped: schema).consumption_requests
                (id, app_id, environment, transaction_id, original_transaction_id, product_type, customer, reason, requested_at, deadline, status)
            VALUES (\(r.id), \(r.appId), \(r.environment.rawValue), \(r.transactionId), \(r.originalTransactionId), \(r.productType.rawValue), \(r.customer),
                    \(r.reason?.rawValue), \(r.requestedAt), \(r.deadline), 'pending')
            ON CONFLICT (id) DO NOTHING RETURNING 1
            """, as: Int.self) != nil
    }

    static let requestColumns = """
        id, app_id, environment, transaction_id, original_transaction_id, product_type, customer, reason, requested_at, deadline, status, status_reason,
        api_version, sent_body::text, sent_at, attempts, last_error
        """

    func request(id: UUID) async throws -> RefundRequest? {
        try await requests("SELECT \(unescaped: Self.requestColumns) FROM \(unescaped: schema).consumption_requests WHERE id = \(id)").first
    }

    func requests(appId: UUID?, transactionId: String?, status: RefundRequest.Status?, limit: Int) async throws -> [RefundRequest] {
        try await requests(
            """
            SELECT \(unescaped: Self.requestColumns) FROM \(unescaped: schema).consumption_requests
            WHERE (\(appId)::uuid IS NULL OR app_id = \(appId)) AND (\(transactionId)::text IS NULL OR transaction_id = \(transactionId))
              AND (\(status?.rawValue)::text IS NULL OR status = \(status?.rawValue))
            ORDER BY requested_at DESC LIMIT \(limit)
            """)
    }

    func requests(customer: UUID, status: RefundRequest.Status, limit: Int) async throws -> [RefundRequest] {
        try await requests(
            """
            SELECT \(unescaped: Self.requestColumns) FROM \(unescaped: schema).consumption_requests
            WHERE status = \(status.rawValue)
              AND (customer = \(customer) OR EXISTS (
                  SELECT 1 FROM \(unescaped: schema).account_links l
                  WHERE l.app_id = consumption_requests.app_id AND l.kind = 'originalTransactionId'
                    AND l.value = consumption_requests.original_transaction_id AND l.customer = \(customer)))
            ORDER BY deadline LIMIT \(limit)
            """)
    }

    private func requests(_ query: PostgresQuery) async throws -> [RefundRequest] {
        try await scope.all(
            query
        ) { row -> RefundRequest in
            let r = try row.decode(
                (UUID, UUID, String, String, String, String, UUID?, String?, Date, Date, String, String?, String?, String?, Date?, Int, String?).self)
            guard let status = RefundRequest.Status(rawValue: r.10) else {
                throw DatabaseError.unreadable("consumption request \(r.0) has status \(r.10)")
            }
            return RefundRequest(
                id: r.0, appId: r.1, environment: AppStoreEnvironment(rawValue: r.2), transactionId: r.3, originalTransactionId: r.4,
                productType: ProductType(rawValue: r.5), customer: r.6, reason: r.7.map(ConsumptionRequestReason.init(rawValue:)), requestedAt: r.8,
                deadline: r.9,
                status: status, statusReason: r.11, apiVersion: r.12.flatMap(ConsumptionAPI.init(rawValue:)), sentBody: r.13, sentAt: r.14, attempts: r.15,
                lastError: r.16)
        }
    }

    func close(id: UUID, status: RefundRequest.Status, reason: String?, api: ConsumptionAPI?, sentBody: String?) async throws -> Bool {
        try await scope.first(
            """
            UPDATE \(unescaped: schema).consumption_requests
            SET status = \(status.rawValue), status_reason = \(reason), api_version = \(api?.rawValue), sent_body = \(sentBody)::jsonb,
                \(unescaped: status == .sent ? "sent_at = now()," : "") attempts = attempts + 1, updated_at = now()
            WHERE id = \(id) AND status = 'pending'
            RETURNING 1
            """, as: Int.self) != nil
    }

    func failed(id: UUID, error: String) async throws {
        try await scope.run(
            """
            UPDATE \(unescaped: schema).consumption_requests SET attempts = attempts + 1, last_error = \(String(error.prefix(500))), updated_at = now()
            WHERE id = \(id)
            """)
    }

    // MARK: Facts and policies, stored as JSON and decoded strictly: data that does not decode is an error, never a default.

    func setFacts(appId: UUID, transactionId: String, _ facts: ConsumptionFacts) async throws {
        try await scope.run(
            """
            INSERT INTO \(unescaped: schema).consumption_facts (app_id, transaction_id, facts) VALUES (\(appId), \(transactionId), \(try JSONColumn.encode(facts))::jsonb)
            ON CONFLICT (app_id, transaction_id) DO UPDATE SET facts = excluded.facts, reported_at = excluded.reported_at
            """)
    }

    func facts(appId: UUID, transactionId: String) async throws -> ConsumptionFacts? {
        try await scope.first(
            "SELECT facts::text FROM \(unescaped: schema).consumption_facts WHERE app_id = \(appId) AND transaction_id = \(transactionId)", as: String.self
        ).map { try JSONColumn.decode(ConsumptionFacts.self, from: $0, column: "consumption_facts.facts") }
    }

    func setPolicy(appId: UUID, _ policy: RefundPolicy) async throws {
        try await scope.run(
            """
            INSERT INTO \(unescaped: schema).refund_policies (app_id, policy) VALUES (\(appId), \(try JSONColumn.encode(policy))::jsonb)
            ON CONFLICT (app_id) DO UPDATE SET policy = excluded.policy, updated_at = excluded.updated_at
            """)
    }

    func policy(appId: UUID) async throws -> RefundPolicy? {
        try await scope.first("SELECT policy::text FROM \(unescaped: schema).refund_policies WHERE app_id = \(appId)", as: String.self).map {
            try JSONColumn.decode(RefundPolicy.self, from: $0, column: "refund_policies.policy")
        }
    }
}

extension PostgresTenantUnit {
    var refunds: any RefundStore { RefundRepository(scope: scope) }
}
