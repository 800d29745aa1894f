import AppStoreServer
import Foundation
import Logging
import PostgresNIO
import StoregatePostgres

/// Applies stored notifications to the tenant's state, each exactly once: transactions, subscriptions,
/// refund outcomes and consumption requests. Runs right after a notification is stored and, for anything
/// that failed then, from the job queue.
public struct NotificationProcessor: Sendable {
    let database: Database
    let repositories: Repositories
    let notifications: NotificationRepository
    let accounts: AccountRepository
    let subscriptions: SubscriptionRepository
    let refunds: RefundRepository
    let jobs: JobQueue
    let chains: ChainVerifier
    let allowUnsignedEnvironments: Bool

    /// The 12 hours Apple gives to answer a `CONSUMPTION_REQUEST`, from its signed date.
    public static let consumptionDeadline: TimeInterval = 12 * 3600

    /// Applies the notification unless it was applied already; returns whether it was applied now.
    /// Throws when it should be tried again later.
    @discardableResult
    public func process(tenantId: UUID, notificationUUID: UUID) async throws -> Bool {
        let found = try await database.withConnection { conn -> (TenantRecord, StoredNotification, AppRecord?)? in
            guard let tenant = try await repositories.tenants.find(id: tenantId, on: conn),
                let (stored, processedAt) = try await notifications.find(notificationUUID, in: tenant.schema, on: conn), processedAt == nil
            else { return nil }
            return (tenant, stored, try await repositories.apps.find(tenantId: tenantId, id: stored.appId, on: conn))
        }
        guard let (tenant, stored, app) = found else {
            try await database.withConnection { try await jobs.complete(tenantId: tenantId, kind: .processNotification, ref: notificationUUID.uuidString, on: $0) }
            return false
        }
        var purchase: SignedPurchase?
        var problem: String?
        let decoded = try JSONDecoder().decode(ResponseBodyV2DecodedPayload.self, from: Data(stored.payload.utf8))
        if let app, let signed = decoded.data?.signedTransactionInfo {
            do {
                purchase = try await SignedPurchase.verify(
                    signedTransaction: signed, signedRenewalInfo: decoded.data?.signedRenewalInfo, app: app, environment: stored.environment, chains: chains,
                    allowUnsignedEnvironments: allowUnsignedEnvironments, field: "signedTransactionInfo")
            } catch StoregateError.unverified(_, let failure) where failure.isRetryable {
                throw StoregateError.unverified(field: "signedTransactionInfo", failure: failure)
            } catch {
                problem = "\(error)"
            }
        } else if app == nil {
            problem = "the app was removed"
        }
        return try await database.transaction { conn in
            guard let (_, processedAt) = try await notifications.find(notificationUUID, lock: true, in: tenant.schema, on: conn), processedAt == nil else { return false }
            if let app, let purchase {
                try await apply(decoded, stored: stored, purchase: purchase, app: app, tenant: tenant, on: conn)
            }
            try await notifications.markProcessed(notificationUUID, error: problem, in: tenant.schema, on: conn)
            try await jobs.complete(tenantId: tenantId, kind: .processNotification, ref: notificationUUID.uuidString, on: conn)
            return true
        }
    }

    private func apply(
        _ notification: ResponseBodyV2DecodedPayload, stored: StoredNotification, purchase: SignedPurchase, app: AppRecord, tenant: TenantRecord,
        on conn: PostgresConnection
    ) async throws {
        let schema = tenant.schema
        let customer = try await accounts.customerOf(
            appId: app.id, originalTransactionId: purchase.originalTransactionId, appAccountToken: purchase.transaction.appAccountToken?.uuid,
            appTransactionId: purchase.transaction.appTransactionId, in: schema, on: conn)
        if let customer {
            try await accounts.linkIfUnlinked(appId: app.id, kind: "originalTransactionId", value: purchase.originalTransactionId, customer: customer, in: schema, on: conn)
        }
        try await accounts.upsert(purchase.transactionRow(appId: app.id, customer: customer), in: schema, on: conn)
        if purchase.isSubscription {
            try await subscriptions.upsert(purchase.subscriptionRow(appId: app.id, customer: customer, status: notification.data?.status), in: schema, on: conn)
        }
        let transaction = purchase.transaction
        switch notification.notificationType {
        case .refund?, .refundDeclined?, .refundReversed?:
            try await refunds.record(
                RefundOutcomeRow(
                    notificationUUID: stored.notificationUUID, appId: app.id, environment: purchase.environment, outcome: stored.notificationType,
                    transactionId: purchase.transactionId, originalTransactionId: purchase.originalTransactionId, productId: transaction.productId ?? "",
                    productType: transaction.type?.rawValue ?? "", quantity: Int(transaction.quantity ?? 1), familyShared: transaction.inAppOwnershipType == .familyShared,
                    refundPercentage: transaction.revocationPercentage.map(Int.init), revocationType: transaction.revocationType?.rawValue,
                    revocationReason: transaction.revocationReason.map { Int($0.rawValue) }, customer: customer, signedDate: stored.signedDate),
                in: schema, on: conn)
            for request in try await refunds.requests(appId: app.id, transactionId: purchase.transactionId, status: "pending", limit: 10, in: schema, on: conn) {
                try await refunds.close(
                    id: request.id, status: "not_sent", reason: "Apple decided (\(stored.notificationType)) before consumption information was sent",
                    apiVersion: nil, sentBody: nil, in: schema, on: conn)
            }
        case .consumptionRequest?:
            let requestedAt = stored.signedDate ?? Date()
            let request = ConsumptionRequestRow(
                id: stored.notificationUUID, appId: app.id, environment: purchase.environment, transactionId: purchase.transactionId,
                originalTransactionId: purchase.originalTransactionId, productType: transaction.type?.rawValue ?? "", customer: customer,
                reason: notification.data?.consumptionRequestReason?.rawValue, requestedAt: requestedAt, deadline: requestedAt + Self.consumptionDeadline)
            if try await refunds.open(request, in: schema, on: conn) {
                let hasFacts = try await refunds.facts(appId: app.id, transactionId: purchase.transactionId, in: schema, on: conn) != nil
                let policy = try await RefundService.policy(appId: app.id, refunds: refunds, in: schema, on: conn)
                let due = hasFacts ? Date() : RefundService.policyTime(deadline: request.deadline, policy: policy)
                try await jobs.enqueue(tenantId: tenant.id, kind: .sendConsumption, ref: request.id.uuidString, due: due, on: conn)
            }
        default:
            break
        }
    }
}
