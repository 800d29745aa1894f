import AppStoreServer
import Foundation

/// Applies stored notifications to the tenant's state, each exactly once: transactions, subscriptions,
/// refund outcomes and consumption requests. Runs right after a notification is stored and, for anything
/// that failed then, from the job queue.
public struct NotificationProcessor: Sendable {
    let persistence: any Persistence
    let verification: Verification

    /// Applies the notification unless it was applied already; returns whether it was applied now.
    /// Throws when it should be tried again later.
    @discardableResult
    public func process(tenant: Tenant, notificationUUID: UUID) async throws -> Bool {
        let ref = notificationUUID.uuidString
        let found = try await persistence.inTenant(tenant, .read) { unit -> (StoredNotification, App?)? in
            guard let stored = try await unit.notifications.find(notificationUUID, lock: false), stored.processedAt == nil else { return nil }
            return (stored, try await unit.apps.find(id: stored.appId))
        }
        guard let (stored, app) = found else {
            try await persistence.inTenant(tenant, .read) { try await $0.completeJob(.processNotification, ref: ref) }
            return false
        }
        let ready = try await prepare(stored, app: app)
        return try await persistence.inTenant(tenant) { unit in
            guard let locked = try await unit.notifications.find(notificationUUID, lock: true), locked.processedAt == nil else { return false }
            try await apply(ready, in: unit)
            try await unit.notifications.markProcessed(notificationUUID, error: ready.problem)
            try await unit.completeJob(.processNotification, ref: ref)
            return true
        }
    }

    /// A stored notification ready to apply: decoded, and what it changes worked out (its nested signed
    /// data verified), or the problem that keeps it from changing anything.
    struct Ready: Sendable {
        let stored: StoredNotification
        let decoded: ResponseBodyV2DecodedPayload
        let app: App?
        let effect: Effect
        /// Recorded as the notification's processing error.
        let problem: String?
    }

    /// Works out what applying `stored` changes, outside any unit of work. Throws when it should be tried
    /// again later: a verification failure that may pass, or a payload that cannot be read.
    func prepare(_ stored: StoredNotification, app: App?) async throws -> Ready {
        guard let payload = stored.payload else { throw StoregateError.invalid(field: "signedPayload", reason: "is not a compact JWS") }
        let decoded = try JSONDecoder().decode(ResponseBodyV2DecodedPayload.self, from: payload)
        guard let app else { return Ready(stored: stored, decoded: decoded, app: nil, effect: .nothing, problem: "the app was removed") }
        do {
            return Ready(stored: stored, decoded: decoded, app: app, effect: try await effect(of: decoded, stored: stored, app: app), problem: nil)
        } catch StoregateError.unverified(let field, let failure) where failure.isRetryable {
            throw StoregateError.unverified(field: field, failure: failure)
        } catch {
            return Ready(stored: stored, decoded: decoded, app: app, effect: .nothing, problem: "\(error)")
        }
    }

    /// Stores what a ready notification changes, in `unit` (which also marks it processed).
    func apply(_ ready: Ready, in unit: any TenantUnit) async throws {
        guard let app = ready.app else { return }
        switch ready.effect {
        case .purchase(let purchase): try await apply(ready.decoded, stored: ready.stored, purchase: purchase, app: app, in: unit)
        case .appTransaction(let appTransaction): try await unit.appTransactions.upsert(appTransaction)
        case .externalPurchaseToken(let token): try await unit.externalPurchaseTokens.record(token)
        case .extensionSummary(let summary): try await unit.extensions.recordSummary(summary)
        case .nothing: break
        }
    }

    /// Marks a notification that keeps failing as processed, with its error, and drops its job.
    func giveUp(tenant: Tenant, notificationUUID: UUID, error: String) async throws {
        try await persistence.inTenant(tenant) { unit in
            try await unit.notifications.markProcessed(notificationUUID, error: error)
            try await unit.completeJob(.processNotification, ref: notificationUUID.uuidString)
        }
    }

    private func apply(
        _ notification: ResponseBodyV2DecodedPayload, stored: StoredNotification, purchase: SignedPurchase, app: App, in unit: any TenantUnit
    ) async throws {
        let customer = try await purchase.store(app: app, status: notification.data?.status, in: unit)
        let transaction = purchase.transaction
        switch stored.notificationType {
        case .refund, .refundDeclined, .refundReversed, .revoke:
            try await unit.refunds.record(
                RefundOutcome(
                    notificationUUID: stored.notificationUUID, appId: app.id, environment: purchase.environment, outcome: stored.notificationType,
                    transactionId: purchase.transactionId, originalTransactionId: purchase.originalTransactionId, productId: transaction.productId ?? "",
                    productType: transaction.type ?? ProductType(rawValue: ""), quantity: Int(transaction.quantity ?? 1),
                    familyShared: transaction.inAppOwnershipType == .familyShared, refundPercentage: transaction.revocationPercentage.map(Int.init),
                    revocationType: transaction.revocationType, revocationReason: transaction.revocationReason, customer: customer,
                    signedDate: stored.signedDate))
            for request in try await unit.refunds.requests(appId: app.id, transactionId: purchase.transactionId, status: .pending, limit: 10) {
                try await unit.refunds.close(
                    id: request.id, status: .notSent, reason: "Apple decided (\(stored.notificationType.rawValue)) before consumption information was sent",
                    api: nil, sentBody: nil)
            }
        case .consumptionRequest:
            let requestedAt = stored.signedDate ?? Date()
            let request = RefundRequest(
                id: stored.notificationUUID, appId: app.id, environment: purchase.environment, transactionId: purchase.transactionId,
                originalTransactionId: purchase.originalTransactionId, productType: transaction.type ?? ProductType(rawValue: ""), customer: customer,
                reason: notification.data?.consumptionRequestReason, requestedAt: requestedAt, deadline: requestedAt + RefundRequest.answerWindow)
            if try await unit.refunds.open(request) {
                let hasFacts = try await unit.refunds.facts(appId: app.id, transactionId: purchase.transactionId) != nil
                let policy = try await unit.refunds.policy(appId: app.id) ?? RefundPolicy()
                let due = hasFacts ? Date() : RefundService.policyTime(deadline: request.deadline, policy: policy)
                try await unit.enqueue(.sendConsumption, ref: request.id.uuidString, due: due)
            }
        default:
            break
        }
    }
}
