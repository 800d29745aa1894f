import Foundation
import Logging
import PostgresNIO

/// Apple's decision on a refund request, from a `REFUND`, `REFUND_DECLINED` or `REFUND_REVERSED` notification.
public struct RefundOutcomeRow: Sendable, Equatable {
    public let notificationUUID: UUID
    public let appId: UUID
    public let environment: String
    public let outcome: String
    public let transactionId: String
    public let originalTransactionId: String
    public let productId: String
    public let productType: String
    public let quantity: Int
    public let familyShared: Bool
    /// Apple's `revocationPercentage`, in milliunits (75000 = 75%).
    public let refundPercentage: Int?
    public let revocationType: String?
    public let revocationReason: Int?
    public let customer: UUID?
    public let signedDate: Date?
    public let recordedAt: Date?

    public init(
        notificationUUID: UUID, appId: UUID, environment: String, outcome: String, transactionId: String, originalTransactionId: String, productId: String,
        productType: String, quantity: Int, familyShared: Bool, refundPercentage: Int?, revocationType: String?, revocationReason: Int?, customer: UUID?,
        signedDate: Date?, recordedAt: Date? = nil
    ) {
        self.notificationUUID = notificationUUID
        self.appId = appId
        self.environment = environment
        self.outcome = outcome
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.productType = productType
        self.quantity = quantity
        self.familyShared = familyShared
        self.refundPercentage = refundPercentage
        self.revocationType = revocationType
        self.revocationReason = revocationReason
        self.customer = customer
        self.signedDate = signedDate
        self.recordedAt = recordedAt
    }
}

/// A `CONSUMPTION_REQUEST` and what Storegate did about it.
public struct ConsumptionRequestRow: Sendable, Equatable {
    public let id: UUID
    public let appId: UUID
    public let environment: String
    public let transactionId: String
    public let originalTransactionId: String
    public let productType: String
    public let customer: UUID?
    public let reason: String?
    public let requestedAt: Date
    public let deadline: Date
    /// `pending`, `sent`, `not_sent` (with `statusReason`) or `expired`.
    public let status: String
    public let statusReason: String?
    public let apiVersion: String?
    public let sentBody: String?
    public let sentAt: Date?
    public let attempts: Int
    public let lastError: String?

    public init(
        id: UUID, appId: UUID, environment: String, transactionId: String, originalTransactionId: String, productType: String, customer: UUID?, reason: String?,
        requestedAt: Date, deadline: Date, status: String = "pending", statusReason: String? = nil, apiVersion: String? = nil, sentBody: String? = nil,
        sentAt: Date? = nil, attempts: Int = 0, lastError: String? = nil
    ) {
        self.id = id
        self.appId = appId
        self.environment = environment
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productType = productType
        self.customer = customer
        self.reason = reason
        self.requestedAt = requestedAt
        self.deadline = deadline
        self.status = status
        self.statusReason = statusReason
        self.apiVersion = apiVersion
        self.sentBody = sentBody
        self.sentAt = sentAt
        self.attempts = attempts
        self.lastError = lastError
    }
}

/// Refund outcomes, consumption requests, reported consumption facts and refund policies, in a tenant's schema.
public struct RefundRepository: Sendable {
    let logger: Logger
    public init(logger: Logger) { self.logger = logger }

    // MARK: Outcomes

    /// Records an outcome once per notification; returns whether it was new.
    @discardableResult
    public func record(_ o: RefundOutcomeRow, in schema: TenantSchema, on conn: PostgresConnection) async throws -> Bool {
        try await conn.first(
            """
            INSERT INTO \(unescaped: schema.sql).refund_outcomes
                (notification_uuid, app_id, environment, outcome, transaction_id, original_transaction_id, product_id, product_type, quantity, family_shared,
                 refund_percentage, revocation_type, revocation_reason, customer, signed_date)
            VALUES (\(o.notificationUUID), \(o.appId), \(o.environment), \(o.outcome), \(o.transactionId), \(o.originalTransactionId), \(o.productId),
                    \(o.productType), \(o.quantity), \(o.familyShared), \(o.refundPercentage), \(o.revocationType), \(o.revocationReason), \(o.customer),
                    \(o.signedDate))
            ON CONFLICT (notification_uuid) DO NOTHING RETURNING 1
            """, as: Int.self, logger: logger) != nil
    }

    static let outcomeColumns = """
        o.notification_uuid, o.app_id, o.environment, o.outcome, o.transaction_id, o.original_transaction_id, o.product_id, o.product_type, o.quantity,
        o.family_shared, o.refund_percentage, o.revocation_type, o.revocation_reason, coalesce(o.customer, l.customer), o.signed_date, o.recorded_at
        """

    /// Outcomes, newest first: of one app's transaction, of a customer, or all of an app's since a date.
    public func outcomes(
        appId: UUID?, transactionId: String?, customer: UUID?, since: Date?, limit: Int, in schema: TenantSchema, on conn: PostgresConnection
    ) async throws -> [RefundOutcomeRow] {
        var out: [RefundOutcomeRow] = []
        let rows = try await conn.query(
            """
            SELECT \(unescaped: Self.outcomeColumns) FROM \(unescaped: schema.sql).refund_outcomes o
            LEFT JOIN \(unescaped: schema.sql).account_links l
              ON l.app_id = o.app_id AND l.kind = 'originalTransactionId' AND l.value = o.original_transaction_id
            WHERE (\(appId)::uuid IS NULL OR o.app_id = \(appId)) AND (\(transactionId)::text IS NULL OR o.transaction_id = \(transactionId))
              AND (\(customer)::uuid IS NULL OR coalesce(o.customer, l.customer) = \(customer))
              AND (\(since)::timestamptz IS NULL OR o.recorded_at >= \(since))
            ORDER BY o.signed_date DESC NULLS LAST, o.recorded_at DESC LIMIT \(limit)
            """, logger: logger)
        for try await row in rows {
            let r = try row.decode((UUID, UUID, String, String, String, String, String, String, Int, Bool, Int?, String?, Int?, UUID?, Date?, Date).self)
            out.append(
                RefundOutcomeRow(
                    notificationUUID: r.0, appId: r.1, environment: r.2, outcome: r.3, transactionId: r.4, originalTransactionId: r.5, productId: r.6,
                    productType: r.7, quantity: r.8, familyShared: r.9, refundPercentage: r.10, revocationType: r.11, revocationReason: r.12, customer: r.13,
                    signedDate: r.14, recordedAt: r.15))
        }
        return out
    }

    /// How many refunds a customer has had (REFUND outcomes not later reversed), for policies.
    public func refundCount(customer: UUID, in schema: TenantSchema, on conn: PostgresConnection) async throws -> Int {
        try await conn.first(
            """
            SELECT count(DISTINCT o.transaction_id)::bigint FROM \(unescaped: schema.sql).refund_outcomes o
            LEFT JOIN \(unescaped: schema.sql).account_links l
              ON l.app_id = o.app_id AND l.kind = 'originalTransactionId' AND l.value = o.original_transaction_id
            WHERE o.outcome = 'REFUND' AND coalesce(o.customer, l.customer) = \(customer)
              AND NOT EXISTS (SELECT 1 FROM \(unescaped: schema.sql).refund_outcomes r
                              WHERE r.app_id = o.app_id AND r.transaction_id = o.transaction_id AND r.outcome = 'REFUND_REVERSED' AND r.signed_date > o.signed_date)
            """, as: Int.self, logger: logger) ?? 0
    }

    // MARK: Consumption requests

    /// Opens a request once per notification; returns whether it was new.
    @discardableResult
    public func open(_ r: ConsumptionRequestRow, in schema: TenantSchema, on conn: PostgresConnection) async throws -> Bool {
        try await conn.first(
            """
            INSERT INTO \(unescaped: schema.sql).consumption_requests
                (id, app_id, environment, transaction_id, original_transaction_id, product_type, customer, reason, requested_at, deadline, status)
            VALUES (\(r.id), \(r.appId), \(r.environment), \(r.transactionId), \(r.originalTransactionId), \(r.productType), \(r.customer), \(r.reason),
                    \(r.requestedAt), \(r.deadline), 'pending')
            ON CONFLICT (id) DO NOTHING RETURNING 1
            """, as: Int.self, logger: logger) != nil
    }

    static let requestColumns = """
        id, app_id, environment, transaction_id, original_transaction_id, product_type, customer, reason, requested_at, deadline, status, status_reason,
        api_version, sent_body::text, sent_at, attempts, last_error
        """

    /// The request, locked for the caller's transaction when `lock` is set.
    public func request(id: UUID, lock: Bool = false, in schema: TenantSchema, on conn: PostgresConnection) async throws -> ConsumptionRequestRow? {
        try await requests(
            "SELECT \(unescaped: Self.requestColumns) FROM \(unescaped: schema.sql).consumption_requests WHERE id = \(id) \(unescaped: lock ? "FOR UPDATE" : "")",
            on: conn
        ).first
    }

    /// Requests, newest first, optionally only one app's, one transaction's or those with a status.
    public func requests(
        appId: UUID?, transactionId: String?, status: String?, limit: Int, in schema: TenantSchema, on conn: PostgresConnection
    ) async throws -> [ConsumptionRequestRow] {
        try await requests(
            """
            SELECT \(unescaped: Self.requestColumns) FROM \(unescaped: schema.sql).consumption_requests
            WHERE (\(appId)::uuid IS NULL OR app_id = \(appId)) AND (\(transactionId)::text IS NULL OR transaction_id = \(transactionId))
              AND (\(status)::text IS NULL OR status = \(status))
            ORDER BY requested_at DESC LIMIT \(limit)
            """, on: conn)
    }

    private func requests(_ query: PostgresQuery, on conn: PostgresConnection) async throws -> [ConsumptionRequestRow] {
        var out: [ConsumptionRequestRow] = []
        for try await row in try await conn.query(query, logger: logger) {
            let r = try row.decode((UUID, UUID, String, String, String, String, UUID?, String?, Date, Date, String, String?, String?, String?, Date?, Int, String?).self)
            out.append(
                ConsumptionRequestRow(
                    id: r.0, appId: r.1, environment: r.2, transactionId: r.3, originalTransactionId: r.4, productType: r.5, customer: r.6, reason: r.7,
                    requestedAt: r.8, deadline: r.9, status: r.10, statusReason: r.11, apiVersion: r.12, sentBody: r.13, sentAt: r.14, attempts: r.15,
                    lastError: r.16))
        }
        return out
    }

    /// Closes a request: `sent` with the body, or `not_sent`/`expired` with the reason.
    public func close(
        id: UUID, status: String, reason: String?, apiVersion: String?, sentBody: String?, in schema: TenantSchema, on conn: PostgresConnection
    ) async throws {
        try await conn.run(
            """
            UPDATE \(unescaped: schema.sql).consumption_requests
            SET status = \(status), status_reason = \(reason), api_version = \(apiVersion), sent_body = \(sentBody)::jsonb,
                sent_at = CASE WHEN \(status) = 'sent' THEN now() ELSE sent_at END, attempts = attempts + 1, updated_at = now()
            WHERE id = \(id) AND status = 'pending'
            """, logger: logger)
    }

    /// Notes a failed attempt; the request stays pending.
    public func failed(id: UUID, error: String, in schema: TenantSchema, on conn: PostgresConnection) async throws {
        try await conn.run(
            """
            UPDATE \(unescaped: schema.sql).consumption_requests SET attempts = attempts + 1, last_error = \(String(error.prefix(500))), updated_at = now()
            WHERE id = \(id)
            """, logger: logger)
    }

    // MARK: Facts and policies

    public func setFacts(appId: UUID, transactionId: String, facts: String, in schema: TenantSchema, on conn: PostgresConnection) async throws {
        try await conn.run(
            """
            INSERT INTO \(unescaped: schema.sql).consumption_facts (app_id, transaction_id, facts) VALUES (\(appId), \(transactionId), \(facts)::jsonb)
            ON CONFLICT (app_id, transaction_id) DO UPDATE SET facts = excluded.facts, reported_at = now()
            """, logger: logger)
    }

    public func facts(appId: UUID, transactionId: String, in schema: TenantSchema, on conn: PostgresConnection) async throws -> String? {
        try await conn.first(
            "SELECT facts::text FROM \(unescaped: schema.sql).consumption_facts WHERE app_id = \(appId) AND transaction_id = \(transactionId)",
            as: String.self, logger: logger)
    }

    public func setPolicy(appId: UUID, policy: String, in schema: TenantSchema, on conn: PostgresConnection) async throws {
        try await conn.run(
            """
            INSERT INTO \(unescaped: schema.sql).refund_policies (app_id, policy) VALUES (\(appId), \(policy)::jsonb)
            ON CONFLICT (app_id) DO UPDATE SET policy = excluded.policy, updated_at = now()
            """, logger: logger)
    }

    public func policy(appId: UUID, in schema: TenantSchema, on conn: PostgresConnection) async throws -> String? {
        try await conn.first("SELECT policy::text FROM \(unescaped: schema.sql).refund_policies WHERE app_id = \(appId)", as: String.self, logger: logger)
    }

    // MARK: Renewal-date extensions

    public func recordExtension(
        requestIdentifier: String, appId: UUID, environment: String, originalTransactionId: String?, productId: String?, days: Int, reasonCode: Int, mass: Bool,
        effectiveDate: Date?, succeeded: Bool?, in schema: TenantSchema, on conn: PostgresConnection
    ) async throws {
        try await conn.run(
            """
            INSERT INTO \(unescaped: schema.sql).renewal_extensions
                (request_identifier, app_id, environment, original_transaction_id, product_id, extend_by_days, extend_reason_code, mass, effective_date, succeeded)
            VALUES (\(requestIdentifier), \(appId), \(environment), \(originalTransactionId), \(productId), \(days), \(reasonCode), \(mass), \(effectiveDate), \(succeeded))
            ON CONFLICT (request_identifier) DO UPDATE SET effective_date = excluded.effective_date, succeeded = excluded.succeeded
            """, logger: logger)
    }

    /// Successful single extensions of a subscription in the last 365 days.
    public func recentExtensions(appId: UUID, originalTransactionId: String, in schema: TenantSchema, on conn: PostgresConnection) async throws -> [Date] {
        var out: [Date] = []
        let rows = try await conn.query(
            """
            SELECT requested_at FROM \(unescaped: schema.sql).renewal_extensions
            WHERE app_id = \(appId) AND original_transaction_id = \(originalTransactionId) AND mass = false AND succeeded IS NOT FALSE
              AND requested_at > now() - interval '365 days'
            ORDER BY requested_at
            """, logger: logger)
        for try await date in rows.decode(Date.self) { out.append(date) }
        return out
    }

    /// Takes a transaction-scoped lock on one subscription's extensions, so two calls cannot both pass the limit.
    public func lockExtensions(appId: UUID, originalTransactionId: String, on conn: PostgresConnection) async throws {
        try await conn.run("SELECT pg_advisory_xact_lock(hashtextextended(\(appId.uuidString + "/" + originalTransactionId), 17))", logger: logger)
    }
}
