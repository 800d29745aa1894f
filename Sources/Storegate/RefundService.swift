import AppStoreServer
import Foundation
import Logging
import PostgresNIO
import StoregatePostgres

/// Refund decisioning inputs: consumption facts, answers to `CONSUMPTION_REQUEST`s before Apple's
/// deadline, refund outcomes turned into what to revoke, and Apple's refund history and order lookup.
public struct RefundService: Sendable {
    let database: Database
    let repositories: Repositories
    let accounts: AccountRepository
    let refunds: RefundRepository
    let jobs: JobQueue
    let gateway: AppStoreGateway
    let verification: DeviceDataVerification
    let logger: Logger

    // MARK: Policy and facts

    public func setPolicy(tenant: TenantRecord, bundleId: String, policy: RefundPolicy, actor: Actor) async throws -> RefundPolicy {
        let app = try await app(tenant: tenant, bundleId: bundleId)
        let policy = try policy.validated()
        let json = String(decoding: try JSONEncoder().encode(policy), as: UTF8.self)
        try await database.transaction { conn in
            try await refunds.setPolicy(appId: app.id, policy: json, in: tenant.schema, on: conn)
            try await repositories.audit.record(
                actor: actor.description, tenantId: tenant.id, action: "refunds.setPolicy", detail: ["bundleId": app.bundleId, "policy": json], on: conn)
        }
        return policy
    }

    public func policy(tenant: TenantRecord, bundleId: String) async throws -> RefundPolicy {
        let app = try await app(tenant: tenant, bundleId: bundleId)
        return try await database.withConnection { try await Self.policy(appId: app.id, refunds: refunds, in: tenant.schema, on: $0) }
    }

    static func policy(appId: UUID, refunds: RefundRepository, in schema: TenantSchema, on conn: PostgresConnection) async throws -> RefundPolicy {
        guard let json = try await refunds.policy(appId: appId, in: schema, on: conn) else { return RefundPolicy() }
        return (try? JSONDecoder().decode(RefundPolicy.self, from: Data(json.utf8))) ?? RefundPolicy()
    }

    /// When the policy answers a request that has no reported facts (or the deadline, to close it).
    static func policyTime(deadline: Date, policy: RefundPolicy) -> Date {
        deadline - TimeInterval((policy.sendMinutesBeforeDeadline ?? 0) * 60)
    }

    /// What `reportConsumption` did.
    public struct Reported: Sendable {
        public let transactionId: String
        /// The open request these facts will answer now, if any.
        public let pendingRequest: ConsumptionRequestRow?
    }

    /// Stores a transaction's consumption facts; an open request for it is answered right away.
    public func reportConsumption(tenant: TenantRecord, bundleId: String, transactionId: String, facts: ConsumptionFacts, actor: Actor) async throws -> Reported {
        let app = try await app(tenant: tenant, bundleId: bundleId)
        let transactionId = try Validate.transactionId(transactionId, field: "transactionId")
        return try await database.transaction { conn in
            guard let known = try await accounts.transactionFacts(appId: app.id, transactionId: transactionId, in: tenant.schema, on: conn) else {
                throw StoregateError.notFound(field: "transactionId")
            }
            let facts = try facts.validated(productType: known.productType)
            try await refunds.setFacts(
                appId: app.id, transactionId: transactionId, facts: String(decoding: try JSONEncoder().encode(facts), as: UTF8.self), in: tenant.schema, on: conn)
            let pending = try await refunds.requests(appId: app.id, transactionId: transactionId, status: "pending", limit: 1, in: tenant.schema, on: conn).first
            if let pending {
                try await jobs.enqueue(tenantId: tenant.id, kind: .sendConsumption, ref: pending.id.uuidString, due: Date(), on: conn)
            }
            try await repositories.audit.record(
                actor: actor.description, tenantId: tenant.id, action: "refunds.reportConsumption",
                detail: ["bundleId": app.bundleId, "transactionId": transactionId, "customerConsented": facts.customerConsented ? "true" : "false"], on: conn)
            return Reported(transactionId: transactionId, pendingRequest: pending)
        }
    }

    // MARK: Answering Apple

    /// What a job run decided.
    public enum JobResult: Sendable, Equatable {
        case done
        case retry(at: Date, reason: String)
    }

    /// Answers one `CONSUMPTION_REQUEST`: sends the facts (or the policy's) when consent allows, records why
    /// not otherwise, closes it when the deadline passed. Apple's retryable failures come back as `retry`.
    public func answer(tenantId: UUID, requestId: UUID, now: Date = Date()) async throws -> JobResult {
        let loaded = try await database.withConnection { conn -> (TenantRecord, ConsumptionRequestRow, AppRecord?, String?, RefundPolicy, CustomerRecord?, Int)? in
            guard let tenant = try await repositories.tenants.find(id: tenantId, on: conn),
                let request = try await refunds.request(id: requestId, in: tenant.schema, on: conn), request.status == "pending"
            else { return nil }
            let app = try await repositories.apps.find(tenantId: tenantId, id: request.appId, on: conn)
            let facts = try await refunds.facts(appId: request.appId, transactionId: request.transactionId, in: tenant.schema, on: conn)
            let policy = try await Self.policy(appId: request.appId, refunds: refunds, in: tenant.schema, on: conn)
            var customer: CustomerRecord?
            var refundCount = 0
            if let id = try await accounts.transactionFacts(appId: request.appId, transactionId: request.transactionId, in: tenant.schema, on: conn)?.customer ?? request.customer {
                customer = try await accounts.customer(id: id, in: tenant.schema, on: conn)
                refundCount = try await refunds.refundCount(customer: id, in: tenant.schema, on: conn)
            }
            return (tenant, request, app, facts, policy, customer, refundCount)
        }
        guard let (tenant, request, app, storedFacts, policy, customer, refundCount) = loaded else { return .done }
        func close(_ status: String, _ reason: String?, api: String? = nil, body: String? = nil) async throws -> JobResult {
            try await database.withConnection { conn in
                try await refunds.close(id: request.id, status: status, reason: reason, apiVersion: api, sentBody: body, in: tenant.schema, on: conn)
            }
            logger.info("consumption request closed", metadata: ["tenant": .string(tenant.slug), "transactionId": .string(request.transactionId), "status": .string(status)])
            return .done
        }
        guard let app else { return try await close("not_sent", "the app was removed") }
        guard now < request.deadline else { return try await close("expired", "the 12-hour deadline passed without facts to send") }

        var facts: ConsumptionFacts
        if let storedFacts, let decoded = try? JSONDecoder().decode(ConsumptionFacts.self, from: Data(storedFacts.utf8)) {
            facts = decoded
        } else {
            let due = Self.policyTime(deadline: request.deadline, policy: policy)
            guard policy.sendMinutesBeforeDeadline != nil, now >= due else { return .retry(at: policy.sendMinutesBeforeDeadline == nil ? request.deadline : due, reason: "waiting for facts") }
            facts = Self.inferred(policy: policy, request: request, customer: customer, refundCount: refundCount, now: now)
        }
        guard facts.customerConsented else { return try await close("not_sent", "the customer did not consent to sharing consumption data") }

        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let api = policy.consumptionApi
        do {
            let client = try await gateway.client(tenantId: tenant.id, app: app, environment: request.environment)
            let body: Data
            if api == "v1" {
                var v1 = facts.v1
                if v1.accountTenure?.rawValue == 0, let customer { v1.accountTenure = AccountTenure(rawValue: Self.tenureCode(since: customer.createdAt, now: now)) }
                body = try encoder.encode(v1)
                try await client.sendConsumptionData(transactionId: request.transactionId, request: v1)
            } else {
                body = try encoder.encode(facts.v2)
                try await client.sendConsumptionInformation(transactionId: request.transactionId, request: facts.v2)
            }
            return try await close("sent", storedFacts == nil ? "sent from the refund policy" : nil, api: api, body: String(decoding: body, as: UTF8.self))
        } catch let error as AppStoreServerAPIError {
            try await database.withConnection { try await refunds.failed(id: request.id, error: error.description, in: tenant.schema, on: $0) }
            guard error.isRetryable else { return try await close("not_sent", "Apple refused it: \(error.description)") }
            if case .api(_, _, _, let retryAfter?) = error { return .retry(at: min(retryAfter, request.deadline), reason: error.description) }
            return .retry(at: min(now + 60, request.deadline), reason: error.description)
        }
    }

    /// The facts the policy gives for a request without reported ones, from what Storegate knows.
    static func inferred(policy: RefundPolicy, request: ConsumptionRequestRow, customer: CustomerRecord?, refundCount: Int, now: Date) -> ConsumptionFacts {
        var preference = policy.refundPreference
        if let limit = policy.declineAfterRefunds, refundCount >= limit { preference = "DECLINE" }
        // Apple needs a consumption percentage for a prorated grant of anything but a subscription; Storegate has none.
        if preference == "GRANT_PRORATED", request.productType != ProductType.autoRenewableSubscription.rawValue { preference = nil }
        return ConsumptionFacts(
            customerConsented: policy.customerConsented, deliveryStatus: policy.deliveryStatus, sampleContentProvided: policy.sampleContentProvided,
            refundPreference: preference, accountTenure: customer.map { Self.tenureCode(since: $0.createdAt, now: now) })
    }

    /// Apple's v1 `accountTenure` code for an account created at `since`.
    static func tenureCode(since: Date, now: Date) -> Int32 {
        let days = now.timeIntervalSince(since) / 86_400
        switch days {
        case ..<3: return 1
        case ..<10: return 2
        case ..<30: return 3
        case ..<90: return 4
        case ..<180: return 5
        case ..<365: return 6
        default: return 7
        }
    }

    // MARK: Reading

    public func requests(tenant: TenantRecord, bundleId: String?, status: String?, limit: Int) async throws -> [ConsumptionRequestRow] {
        let appId = try await appId(tenant: tenant, bundleId: bundleId)
        if let status, !["pending", "sent", "not_sent", "expired"].contains(status) {
            throw StoregateError.invalid(field: "status", reason: "must be pending, sent, not_sent or expired")
        }
        return try await database.withConnection { try await refunds.requests(appId: appId, transactionId: nil, status: status, limit: limit, in: tenant.schema, on: $0) }
    }

    public func outcomes(tenant: TenantRecord, bundleId: String?, transactionId: String?, customerId: String?, limit: Int) async throws -> [RefundOutcomeRow] {
        let appId = try await appId(tenant: tenant, bundleId: bundleId)
        if transactionId != nil, appId == nil { throw StoregateError.invalid(field: "bundleId", reason: "is required with transactionId") }
        let transactionId = try transactionId.map { try Validate.transactionId($0, field: "transactionId") }
        return try await database.withConnection { conn in
            var customer: UUID?
            if let customerId {
                guard let found = try await accounts.customer(customerId: customerId, in: tenant.schema, on: conn) else { throw StoregateError.notFound(field: "customerId") }
                customer = found.id
            }
            return try await refunds.outcomes(appId: appId, transactionId: transactionId, customer: customer, since: nil, limit: limit, in: tenant.schema, on: conn)
        }
    }

    /// Apple's refund history for the customer behind `transactionId`, every page, each transaction verified.
    public func history(tenant: TenantRecord, bundleId: String, transactionId: String) async throws -> [JWSTransactionDecodedPayload] {
        let app = try await app(tenant: tenant, bundleId: bundleId)
        let id = try Validate.transactionId(transactionId, field: "transactionId")
        let (signed, _) = try await gateway.firstEnvironment(tenantId: tenant.id, app: app, field: "transactionId") { client throws(AppStoreServerAPIError) in
            var all: [String] = []
            do {
                for try await page in client.refundHistory(anyTransactionId: id) { all += page.signedTransactions ?? [] }
            } catch let error as AppStoreServerAPIError {
                throw error
            } catch {
                throw AppStoreServerAPIError.transport("\(error)")
            }
            return all
        }
        var out: [JWSTransactionDecodedPayload] = []
        for jws in signed {
            out.append(try await verification.verify(jws, as: .transaction, app: app, field: "signedTransactions").decode(JWSTransactionDecodedPayload.self))
        }
        return out
    }

    /// Looks up a customer's order ID (from the App Store receipt email): its status and verified transactions.
    public func lookupOrder(tenant: TenantRecord, bundleId: String, orderId: String) async throws -> (valid: Bool, transactions: [JWSTransactionDecodedPayload]) {
        let app = try await app(tenant: tenant, bundleId: bundleId)
        let orderId = try Validate.text(orderId, field: "orderId", max: 64)
        guard orderId.allSatisfy({ $0.isLetter || $0.isNumber }) else { throw StoregateError.invalid(field: "orderId", reason: "must be letters and digits") }
        var lastResponse: OrderLookupResponse?
        for environment in app.environments.sorted(by: { $0 == "Production" && $1 != "Production" }) {
            let client = try await gateway.client(tenantId: tenant.id, app: app, environment: environment)
            do {
                let response = try await client.lookUpOrderId(orderId: orderId)
                lastResponse = response
                if response.status == .valid { break }
            } catch {
                throw AppStoreGateway.storegateError(error, field: "orderId")
            }
        }
        guard let response = lastResponse, response.status == .valid else { return (false, []) }
        var out: [JWSTransactionDecodedPayload] = []
        for jws in response.signedTransactions ?? [] {
            out.append(try await verification.verify(jws, as: .transaction, app: app, field: "signedTransactions").decode(JWSTransactionDecodedPayload.self))
        }
        return (true, out)
    }

    func appId(tenant: TenantRecord, bundleId: String?) async throws -> UUID? {
        guard let bundleId else { return nil }
        return try await app(tenant: tenant, bundleId: bundleId).id
    }

    func app(tenant: TenantRecord, bundleId: String) async throws -> AppRecord {
        let bundleId = try Validate.bundleId(bundleId)
        return try await database.withConnection { conn in
            guard let app = try await repositories.apps.find(tenantId: tenant.id, bundleId: bundleId, on: conn) else { throw StoregateError.notFound(field: "bundleId") }
            return app
        }
    }
}
