import AppStoreServer
import Foundation

/// What a notification changes, worked out (and its nested signed data verified) before the unit of
/// work that applies it. A notification carries exactly one of `data`, `appData`,
/// `externalPurchaseToken` and `summary`; each has its own effect.
extension NotificationProcessor {
    enum Effect: Sendable {
        /// `data`: a transaction (and renewal info) to store, and for refund and consumption types more.
        case purchase(SignedPurchase)
        /// `appData` (`RESCIND_CONSENT`): the customer's verified app transaction, with consent rescinded.
        case appTransaction(StoredAppTransaction)
        /// `externalPurchaseToken` (`EXTERNAL_PURCHASE_TOKEN`).
        case externalPurchaseToken(ExternalPurchaseTokenRecord)
        /// `summary` (`RENEWAL_EXTENSION` / `SUMMARY`): a mass extension finished.
        case extensionSummary(MassExtensionSummary)
        /// `TEST`, or a type without data.
        case nothing
    }

    /// Verifies what the notification carries and returns what to store. Throws `unverified` for nested
    /// signed data that fails (retryable when the failure may pass).
    func effect(of notification: ResponseBodyV2DecodedPayload, stored: StoredNotification, app: App) async throws -> Effect {
        if let signed = notification.data?.signedTransactionInfo {
            return .purchase(
                try await verification.purchase(
                    signedTransaction: signed, signedRenewalInfo: notification.data?.signedRenewalInfo, app: app, environment: stored.environment,
                    field: "data.signedTransactionInfo"))
        }
        if let appData = notification.appData {
            let field = "appData.signedAppTransactionInfo"
            guard let signed = appData.signedAppTransactionInfo else { throw StoregateError.invalid(field: field, reason: "is missing") }
            let rescinded = NotificationAction(stored.notificationType) == .consentRescinded ? stored.signedDate ?? Date() : nil
            return .appTransaction(
                try await verification.appTransaction(signed, app: app, environment: stored.environment, field: field, consentRescindedAt: rescinded))
        }
        if let token = notification.externalPurchaseToken {
            guard let id = token.externalPurchaseId, !id.isEmpty else {
                throw StoregateError.invalid(field: "externalPurchaseToken.externalPurchaseId", reason: "is missing")
            }
            return .externalPurchaseToken(
                ExternalPurchaseTokenRecord(
                    appId: app.id, environment: id.hasPrefix("SANDBOX") ? .sandbox : .production, externalPurchaseId: id,
                    tokenCreationDate: token.tokenCreationDate.map { Date(timeIntervalSince1970: Double($0) / 1000) }, subtype: stored.subtype,
                    notificationUUID: stored.notificationUUID, tokenType: token.tokenType,
                    tokenExpirationDate: token.tokenExpirationDate.map { Date(timeIntervalSince1970: Double($0) / 1000) }))
        }
        if let summary = notification.summary {
            guard let identifier = summary.requestIdentifier, !identifier.isEmpty else {
                throw StoregateError.invalid(field: "summary.requestIdentifier", reason: "is missing")
            }
            return .extensionSummary(
                MassExtensionSummary(
                    requestIdentifier: identifier, appId: app.id, environment: summary.environment ?? stored.environment, productId: summary.productId,
                    storefrontCountryCodes: summary.storefrontCountryCodes, succeededCount: summary.succeededCount ?? 0,
                    failedCount: summary.failedCount ?? 0, completedAt: stored.signedDate ?? Date()))
        }
        return .nothing
    }
}
