import AppStoreServer
@_spi(LegacyConsumption) import AppStoreServer
import Contract
import Foundation
import Logging

/// Refund decisioning inputs: consumption facts, answers to `CONSUMPTION_REQUEST`s before Apple's
/// deadline, refund outcomes turned into what to revoke, and Apple's refund history and order lookup.
public struct RefundService: Sendable {
    let persistence: any Persistence
    let gateway: AppStoreGateway
    let verification: Verification
    let logger: Logger
    let directory: AppDirectory
    let jobs: JobSignal

    // MARK: Policy and facts

    public func setPolicy(tenant: Tenant, bundleId: String, policy: RefundPolicy, actor: Actor) async throws -> RefundPolicy {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        let policy = try policy.validated()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(policy), as: UTF8.self)
        try await persistence.inTenant(tenant) { unit in
            try await unit.refunds.setPolicy(appId: app.id, policy)
            try await unit.audit(actor, "refunds.setPolicy", ["bundleId": app.bundleId, "policy": json])
        }
        return policy
    }

    public func policy(tenant: Tenant, bundleId: String) async throws -> RefundPolicy {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        return try await persistence.inTenant(tenant, .read) { try await $0.refunds.policy(appId: app.id) } ?? RefundPolicy()
    }

    /// When the policy answers a request that has no reported facts (or the deadline, to close it).
    static func policyTime(deadline: Date, policy: RefundPolicy) -> Date {
        deadline - TimeInterval((policy.sendMinutesBeforeDeadline ?? 0) * 60)
    }

    /// What `reportConsumption` did.
    public struct Reported: Sendable {
        public let transactionId: String
        /// The open request these facts will answer now, if any.
        public let pendingRequest: RefundRequest?
    }

    /// Stores a transaction's consumption facts; an open request for it is answered right away (its job
    /// is added and the worker woken).
    public func reportConsumption(tenant: Tenant, bundleId: String, transactionId: String, facts: ConsumptionFacts, actor: Actor) async throws -> Reported {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        let transactionId = try Validate.transactionId(transactionId, field: "transactionId")
        let reported = try await persistence.inTenant(tenant) { unit in
            guard let known = try await unit.transactions.facts(appId: app.id, transactionId: transactionId) else {
                throw StoregateError.notFound(field: "transactionId")
            }
            let facts = try facts.validated(productType: known.productType)
            try await unit.refunds.setFacts(appId: app.id, transactionId: transactionId, facts)
            let pending = try await unit.refunds.requests(appId: app.id, transactionId: transactionId, status: .pending, limit: 1).first
            if let pending { try await unit.enqueue(.sendConsumption, ref: pending.id.uuidString, due: Date()) }
            try await unit.audit(
                actor, "refunds.reportConsumption",
                ["bundleId": app.bundleId, "transactionId": transactionId, "customerConsented": facts.customerConsented ? "true" : "false"])
            return Reported(transactionId: transactionId, pendingRequest: pending)
        }
        if reported.pendingRequest != nil { jobs.poke() }
        return reported
    }

    // MARK: Answering Apple

    /// What a job run decided.
    public enum JobResult: Sendable, Equatable {
        case done
        case retry(at: Date, reason: String)
    }

    /// What answering a request needs, read in one unit.
    private struct Answering: Sendable {
        let request: RefundRequest
        let app: App?
        let facts: ConsumptionFacts?
        let policy: RefundPolicy
        let customer: Customer?
        let refundCount: Int
    }

    /// Answers one `CONSUMPTION_REQUEST`: sends the facts (or the policy's) when consent allows, records why
    /// not otherwise, closes it when the deadline passed. Apple's retryable failures come back as `retry`.
    public func answer(tenantId: UUID, requestId: UUID, now: Date = Date()) async throws -> JobResult {
        guard let tenant = try await persistence.tenant(id: tenantId) else { return .done }
        let loaded = try await persistence.inTenant(tenant, .read) { unit -> Answering? in
            guard let request = try await unit.refunds.request(id: requestId), request.status == .pending else { return nil }
            var customer: Customer?
            var refundCount = 0
            if let id = try await unit.transactions.facts(appId: request.appId, transactionId: request.transactionId)?.customer ?? request.customer {
                customer = try await unit.customers.find(id: id)
                refundCount = try await unit.refunds.refundCount(customer: id)
            }
            return Answering(
                request: request, app: try await unit.apps.find(id: request.appId),
                facts: try await unit.refunds.facts(appId: request.appId, transactionId: request.transactionId),
                policy: try await unit.refunds.policy(appId: request.appId) ?? RefundPolicy(), customer: customer, refundCount: refundCount)
        }
        guard let loaded else { return .done }
        let request = loaded.request
        let policy = loaded.policy
        func close(_ status: RefundRequest.Status, _ reason: String?, api: ConsumptionAPI? = nil, body: String? = nil) async throws -> JobResult {
            try await persistence.inTenant(tenant) { unit in
                if try await unit.refunds.close(id: request.id, status: status, reason: reason, api: api, sentBody: body) {
                    try await unit.events.append([try Events.consumptionAnswered(request, status: status, api: api, reason: reason)])
                }
            }
            logger.info(
                "consumption request closed",
                metadata: ["tenant": .string(tenant.slug), "transactionId": .string(request.transactionId), "status": .string(status.rawValue)])
            return .done
        }
        guard let app = loaded.app else { return try await close(.notSent, "the app was removed") }
        guard now < request.deadline else { return try await close(.expired, "the 12-hour deadline passed without facts to send") }

        let facts: ConsumptionFacts
        if let reported = loaded.facts {
            facts = reported
        } else {
            let due = Self.policyTime(deadline: request.deadline, policy: policy)
            guard policy.sendMinutesBeforeDeadline != nil, now >= due else {
                return .retry(at: policy.sendMinutesBeforeDeadline == nil ? request.deadline : due, reason: "waiting for facts")
            }
            facts = Self.inferred(policy: policy, request: request, customer: loaded.customer, refundCount: loaded.refundCount, now: now)
        }
        guard facts.customerConsented else { return try await close(.notSent, "the customer did not consent to sharing consumption data") }

        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            let client = try await gateway.client(tenant: tenant, app: app, environment: request.environment)
            let body: Data
            switch policy.consumptionApi {
            case .v1:
                var v1 = facts.v1
                if v1.accountTenure?.rawValue == 0, let customer = loaded.customer {
                    v1.accountTenure = AccountTenure(rawValue: Self.tenureCode(since: customer.createdAt, now: now))
                }
                body = try encoder.encode(v1)
                try await client.sendConsumptionDataToLegacyEndpoint(transactionId: request.transactionId, request: v1)
            case .v2:
                body = try encoder.encode(facts.v2)
                try await client.sendConsumptionInformation(transactionId: request.transactionId, request: facts.v2)
            }
            return try await close(
                .sent, loaded.facts == nil ? "sent from the refund policy" : nil, api: policy.consumptionApi, body: String(decoding: body, as: UTF8.self))
        } catch let error as AppStoreServerAPIError {
            try await persistence.inTenant(tenant, .read) { try await $0.refunds.failed(id: request.id, error: error.description) }
            guard error.isRetryable else { return try await close(.notSent, "Apple refused it: \(error.description)") }
            if case .api(_, _, _, let retryAfter?) = error { return .retry(at: min(retryAfter, request.deadline), reason: error.description) }
            return .retry(at: min(now + 60, request.deadline), reason: error.description)
        }
    }

    /// The facts the policy gives for a request without reported ones, from what Storegate knows.
    static func inferred(policy: RefundPolicy, request: RefundRequest, customer: Customer?, refundCount: Int, now: Date) -> ConsumptionFacts {
        var preference = policy.refundPreference
        if let limit = policy.declineAfterRefunds, refundCount >= limit { preference = .decline }
        // Apple needs a consumption percentage for a prorated grant of anything but a subscription; Storegate has none.
        if preference == .grantProrated, request.productType != .autoRenewableSubscription { preference = nil }
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

    public static let requestsPage = PageSize(standard: 50, maximum: 200)
    public static let outcomesPage = PageSize(standard: 50, maximum: 200)

    /// Apple's CONSUMPTION_REQUESTs, newest first: those in `status`, pending ones when nil.
    public func requests(tenant: Tenant, bundleId: String?, status: RefundRequest.Status?, limit: Int?) async throws -> [ConsumptionRequestItem] {
        let (status, limit) = (status ?? .pending, try Self.requestsPage.limit(limit))
        let appId = try await persistence.appId(tenant, bundleId: bundleId)
        let rows = try await persistence.inTenant(tenant, .read) {
            try await $0.refunds.requests(appId: appId, transactionId: nil, status: status, limit: limit)
        }
        let bundles = try await directory.bundleIds(tenant: tenant, covering: rows.map(\.appId))
        return try rows.map { try ConsumptionRequestItem($0, bundleId: bundles[$0.appId] ?? "") }
    }

    /// A customer's pending CONSUMPTION_REQUESTs, soonest deadline first.
    public func pendingRequests(tenant: Tenant, customerId: String) async throws -> [ConsumptionRequestItem] {
        let customerId = try Validate.customerId(customerId)
        let rows = try await persistence.inTenant(tenant, .read) { unit in
            guard let customer = try await unit.customers.find(customerId: customerId) else { throw StoregateError.notFound(field: "customerId") }
            return try await unit.refunds.requests(customer: customer.id, status: .pending, limit: Self.requestsPage.maximum)
        }
        let bundles = try await directory.bundleIds(tenant: tenant, covering: rows.map(\.appId))
        return try rows.map { try ConsumptionRequestItem($0, bundleId: bundles[$0.appId] ?? "") }
    }

    public func outcomes(tenant: Tenant, bundleId: String?, transactionId: String?, customerId: String?, limit: Int?) async throws -> [RefundOutcomeItem] {
        let limit = try Self.outcomesPage.limit(limit)
        let appId = try await persistence.appId(tenant, bundleId: bundleId)
        if transactionId != nil, appId == nil { throw StoregateError.invalid(field: "bundleId", reason: "is required with transactionId") }
        let transactionId = try transactionId.map { try Validate.transactionId($0, field: "transactionId") }
        return try await persistence.inTenant(tenant, .read) { unit in
            var customer: UUID?
            if let customerId {
                guard let found = try await unit.customers.find(customerId: customerId) else { throw StoregateError.notFound(field: "customerId") }
                customer = found.id
            }
            let rows = try await unit.refunds.outcomes(appId: appId, transactionId: transactionId, customer: customer, limit: limit)
            var customers: [UUID: String] = [:]
            for id in Set(rows.compactMap(\.customer)) { customers[id] = try await unit.customers.find(id: id)?.customerId }
            let bundles = try await directory.bundleIds(tenant: tenant, covering: rows.map(\.appId))
            return rows.map { RefundOutcomeItem($0, bundleId: bundles[$0.appId] ?? "", customerId: $0.customer.flatMap { customers[$0] }) }
        }
    }

    /// Apple's refund history for the customer behind `transactionId`, every page, each transaction verified
    /// and stored. A refund Storegate had not heard of (its notification was missed) becomes its outcome and
    /// `refund.granted` event here, once: the notification arriving later records nothing more.
    public func history(tenant: Tenant, bundleId: String, transactionId: String) async throws -> [JWSTransactionDecodedPayload] {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        let id = try Validate.transactionId(transactionId, field: "transactionId")
        let (signed, environment) = try await gateway.firstEnvironment(tenant: tenant, app: app, field: "transactionId") {
            client throws(AppStoreServerAPIError) in
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
        var refunded: [SignedPurchase] = []
        for jws in signed {
            refunded.append(
                try await verification.purchase(signedTransaction: jws, signedRenewalInfo: nil, app: app, environment: environment, field: "signedTransactions")
            )
        }
        try await record(refunded, app: app, tenant: tenant)
        return refunded.map(\.transaction)
    }

    /// Stores refunded transactions from refund history, each with its outcome unless already recorded.
    private func record(_ refunded: [SignedPurchase], app: App, tenant: Tenant) async throws {
        let refunded = refunded.filter { $0.transaction.revocationDate != nil }
        guard !refunded.isEmpty else { return }
        try await persistence.inTenant(tenant) { unit in
            var events: [NewEvent] = []
            try await unit.transactions.lockSeries(refunded.map { $0.series(in: app) })
            for purchase in refunded {
                let stored = try await purchase.store(app: app, status: nil, subscriptionState: false, in: unit)
                events += stored.events
                let outcome = RefundOutcome(
                    purchase, appId: app.id, outcome: purchase.transaction.revocationType == .familyRevoke ? .revoke : .refund, source: .refundHistory,
                    notificationUUID: nil, customer: stored.owner, signedDate: purchase.transaction.signedDate?.date)
                events += try await outcome.record(purchase, app: app, in: unit)
            }
            try await unit.events.append(events)
        }
    }

    /// An order Apple's Look Up Order ID found: its verified transactions and the customer they belong to.
    public struct Order: Sendable {
        public let valid: Bool
        public let transactions: [JWSTransactionDecodedPayload]
        /// The customer the order's transactions belong to: the owner Apple's data names, or the one given.
        public let customerId: String?
    }

    /// Looks up a customer's order ID (from the App Store invoice) and keeps what Apple answers: the order's
    /// transactions, verified, stored with the order ID and linked to their customer (the owner Apple's
    /// data names, else `customerId`, created on first use), so `accounts.resolve` finds the customer by
    /// the order ID later. An invalid order changes nothing.
    public func lookupOrder(tenant: Tenant, bundleId: String, orderId: String, customerId: String?, actor: Actor) async throws -> Order {
        let app = try await persistence.app(tenant, bundleId: bundleId)
        let orderId = try Validate.orderId(orderId)
        let customerId = try customerId.map { try Validate.customerId($0) }
        var found: (response: OrderLookupResponse, environment: AppStoreEnvironment)?
        for environment in app.environmentsProductionFirst {
            let client = try await gateway.client(tenant: tenant, app: app, environment: environment)
            do {
                let response = try await client.lookUpOrderId(orderId: orderId)
                found = (response, environment)
                if response.status == .valid { break }
            } catch {
                throw AppStoreGateway.storegateError(error, field: "orderId")
            }
        }
        guard let (response, environment) = found, response.status == .valid else { return Order(valid: false, transactions: [], customerId: nil) }
        var purchases: [SignedPurchase] = []
        for jws in response.signedTransactions ?? [] {
            purchases.append(
                try await verification.purchase(signedTransaction: jws, signedRenewalInfo: nil, app: app, environment: environment, field: "signedTransactions")
            )
        }
        let owner = try await persistence.inTenant(tenant) { unit -> String? in
            // The series first: a batch of notifications storing one of them may be linking it to this customer.
            try await unit.transactions.lockSeries(purchases.map { $0.series(in: app) })
            let given = if let customerId { try await unit.customers.ensure(customerId: customerId).customer.id } else { UUID?.none }
            var events: [NewEvent] = []
            var owner: UUID?
            for purchase in purchases {
                let stored = try await purchase.store(app: app, status: nil, fallback: given, subscriptionState: false, in: unit)
                owner = owner ?? stored.owner
                events += stored.events
            }
            try await unit.transactions.setOrder(appId: app.id, orderId: orderId, transactionIds: purchases.map(\.transactionId))
            let ownerId = if let owner { try await unit.customers.find(id: owner)?.customerId } else { String?.none }
            try await unit.audit(actor, "order.lookup", ["bundleId": app.bundleId, "orderId": orderId, "customerId": ownerId ?? ""])
            try await unit.events.append(events)
            return ownerId
        }
        return Order(valid: true, transactions: purchases.map(\.transaction), customerId: owner)
    }
}
