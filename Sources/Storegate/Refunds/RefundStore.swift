import AppStoreServer
import Foundation
import KeyVault

public protocol RefundStore: Sendable {
    /// Records an outcome once: once per notification, and a refund once per transaction and revocation date
    /// however it was found; returns whether it was new.
    @discardableResult func record(_ outcome: RefundOutcome) async throws -> Bool
    /// Outcomes, newest first: of one app, one transaction, one customer, as filtered.
    func outcomes(appId: UUID?, transactionId: String?, customer: UUID?, limit: Int) async throws -> [RefundOutcome]
    /// How many refunds a customer has had (not later reversed).
    func refundCount(customer: UUID) async throws -> Int
    /// Opens a request once per notification; returns whether it was new.
    @discardableResult func open(_ request: RefundRequest) async throws -> Bool
    func request(id: UUID) async throws -> RefundRequest?
    func requests(appId: UUID?, transactionId: String?, status: RefundRequest.Status?, limit: Int) async throws -> [RefundRequest]
    /// A customer's requests in `status` (stored with them, or linked to them since), soonest deadline first.
    func requests(customer: UUID, status: RefundRequest.Status, limit: Int) async throws -> [RefundRequest]
    /// Closes a pending request with its status, reason and what was sent; returns whether it was pending.
    @discardableResult func close(id: UUID, status: RefundRequest.Status, reason: String?, api: ConsumptionAPI?, sentBody: String?) async throws -> Bool
    /// Notes a failed attempt; the request stays pending.
    func failed(id: UUID, error: String) async throws
    func setFacts(appId: UUID, transactionId: String, _ facts: ConsumptionFacts) async throws
    func facts(appId: UUID, transactionId: String) async throws -> ConsumptionFacts?
    func setPolicy(appId: UUID, _ policy: RefundPolicy) async throws
    func policy(appId: UUID) async throws -> RefundPolicy?
}
