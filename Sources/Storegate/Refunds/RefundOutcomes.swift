import AppStoreServer
import Foundation

extension RefundOutcome {
    /// Apple's `outcome` for a verified transaction, learnt from `source`.
    init(
        _ purchase: SignedPurchase, appId: UUID, outcome: NotificationTypeV2, source: Source, notificationUUID: UUID?, customer: UUID?, signedDate: Date?
    ) {
        let transaction = purchase.transaction
        self.init(
            notificationUUID: notificationUUID, appId: appId, environment: purchase.environment, outcome: outcome, transactionId: purchase.transactionId,
            originalTransactionId: purchase.originalTransactionId, productId: transaction.productId ?? "",
            productType: transaction.type ?? ProductType(rawValue: ""), quantity: Int(transaction.quantity ?? 1),
            familyShared: transaction.inAppOwnershipType == .familyShared, refundPercentage: transaction.revocationPercentage.map(Int.init),
            revocationType: transaction.revocationType, revocationReason: transaction.revocationReason, revocationDate: transaction.revocationDate?.date,
            source: source, customer: customer, signedDate: signedDate)
    }

    /// Records the outcome unless it is there already (from its notification, or the same refund found the
    /// other way); a new one makes its event and closes the transaction's pending consumption requests, as
    /// Apple decided before consumption information was sent. Returns the events, for the caller to append.
    func record(_ purchase: SignedPurchase, app: App, in unit: any TenantUnit) async throws -> [NewEvent] {
        guard try await unit.refunds.record(self) else { return [] }
        var events: [NewEvent] = []
        if let event = try Events.refund(self) { events.append(event) }
        if let event = try await LifecycleEvents.refund(self, purchase: purchase, app: app, in: unit) { events.append(event) }
        for request in try await unit.refunds.requests(appId: appId, transactionId: transactionId, status: .pending, limit: 10) {
            let reason = "Apple decided (\(outcome.rawValue)) before consumption information was sent"
            if try await unit.refunds.close(id: request.id, status: .notSent, reason: reason, api: nil, sentBody: nil) {
                events.append(try Events.consumptionAnswered(request, status: .notSent, api: nil, reason: reason))
            }
        }
        return events
    }
}
