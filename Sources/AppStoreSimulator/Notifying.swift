import AppStoreServer
import Foundation

/// Scenarios that change a customer's purchases and send the notification Apple would send.
extension AppStoreSimulator {
    public enum ScenarioError: Error, CustomStringConvertible {
        case unknownTransaction(String)
        case unknownApp(String)
        /// A value Apple would not take, naming its field.
        case invalid(field: String, reason: String)
        public var description: String {
            switch self {
            case .unknownTransaction(let id): "no transaction \(id)"
            case .unknownApp(let bundleId): "no app \(bundleId)"
            case .invalid(let field, let reason): "\(field) \(reason)"
            }
        }
    }

    /// What a notification carries: Apple sends exactly one of these.
    public enum NotificationBody: Sendable {
        /// `data`: a transaction and renewal info (most types).
        case data(JWSTransactionDecodedPayload?, JWSRenewalInfoDecodedPayload?, consumptionRequestReason: ConsumptionRequestReason?)
        /// `summary`: a mass renewal-date extension finished (`RENEWAL_EXTENSION` / `SUMMARY`).
        case summary(Summary)
        /// `externalPurchaseToken` (`EXTERNAL_PURCHASE_TOKEN`).
        case externalPurchaseToken(ExternalPurchaseToken)
        /// `appData` with the signed app transaction (`RESCIND_CONSENT`).
        case appData(AppTransaction)
    }

    /// Signs a notification with `data`, adds it to the history, and sends it to the app's URL (with Apple's retries).
    @discardableResult
    public func notify(
        _ type: NotificationTypeV2, subtype: Subtype? = nil, bundleId: String, transaction: JWSTransactionDecodedPayload? = nil,
        renewal: JWSRenewalInfoDecodedPayload? = nil, consumptionRequestReason: ConsumptionRequestReason? = nil
    ) async throws -> ResponseBodyV2DecodedPayload {
        try await notify(type, subtype: subtype, bundleId: bundleId, body: .data(transaction, renewal, consumptionRequestReason: consumptionRequestReason))
    }

    /// Signs a notification, adds it to the history, and sends it to the app's URL (with Apple's retries).
    @discardableResult
    public func notify(
        _ type: NotificationTypeV2, subtype: Subtype? = nil, bundleId: String, body: NotificationBody
    ) async throws
        -> ResponseBodyV2DecodedPayload
    {
        guard let app = await store.app(bundleId) else { throw ScenarioError.unknownApp(bundleId) }
        var payload = ResponseBodyV2DecodedPayload(
            notificationType: type, subtype: subtype, notificationUUID: UUID().uuidString.lowercased(), version: "2.0", signedDate: Timestamp(now()))
        switch body {
        case .data(let transaction, let renewal, let reason):
            let subscriptionStatus: Status? =
                if let transaction, transaction.type == .autoRenewableSubscription { status(of: transaction, renewal: renewal) } else { nil }
            payload.data = NotificationData(
                environment: app.environment, appAppleId: app.appAppleId, bundleId: bundleId, bundleVersion: "1",
                signedTransactionInfo: try transaction.map { try ca.sign($0) }, signedRenewalInfo: try renewal.map { try ca.sign($0) },
                status: subscriptionStatus, consumptionRequestReason: reason)
        case .summary(let summary): payload.summary = summary
        case .externalPurchaseToken(let token): payload.externalPurchaseToken = token
        case .appData(let appTransaction):
            payload.appData = AppData(
                appAppleId: app.appAppleId, bundleId: bundleId, environment: app.environment, signedAppTransactionInfo: try ca.sign(appTransaction))
        }
        let signed = try ca.sign(payload)
        await store.appendNotification(bundleId: bundleId, payload: payload, signed: signed, attempts: [])
        if await store.holdingDeliveries {
            await store.hold(bundleId: bundleId, signed: signed)
        } else if let url = await store.notificationURL(bundleId: bundleId), let sender {
            let store = store
            sender.deliver(signed, to: url) { attempt in await store.recordAttempt(signed: signed, attempt: attempt) }
        }
        return payload
    }

    /// Sends a notification held back (`SimulatorStore.holdDeliveries`) now, as Apple would have.
    public func deliverHeld(_ signed: String) async throws {
        guard let bundleId = await store.takeHeld(signed) else { throw ScenarioError.invalid(field: "signedPayload", reason: "is not held") }
        guard let url = await store.notificationURL(bundleId: bundleId), let sender else { return }
        let store = store
        sender.deliver(signed, to: url) { attempt in await store.recordAttempt(signed: signed, attempt: attempt) }
    }

    /// A purchase and its notification: `SUBSCRIBED` (`INITIAL_BUY`) for a subscription, else `ONE_TIME_CHARGE`.
    @discardableResult
    public func purchase(_ purchase: SimulatorStore.Purchase) async throws -> JWSTransactionDecodedPayload {
        // Refused before anything is kept: a purchase in an app the simulator does not know was half made.
        guard await store.app(purchase.bundleId) != nil else { throw ScenarioError.unknownApp(purchase.bundleId) }
        guard ProductType.known.contains(purchase.type) else {
            throw ScenarioError.invalid(
                field: "type", reason: "must be one of Apple's product types: " + ProductType.known.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
        }
        let transaction = await store.purchase(purchase)
        if purchase.type == .autoRenewableSubscription {
            let renewal = await store.renewal(originalTransactionId: transaction.originalTransactionId ?? "")
            try await notify(.subscribed, subtype: .initialBuy, bundleId: purchase.bundleId, transaction: transaction, renewal: renewal)
        } else {
            try await notify(.oneTimeCharge, bundleId: purchase.bundleId, transaction: transaction)
        }
        return transaction
    }

    /// The subscription renews for another period: `DID_RENEW` (`BILLING_RECOVERY` after a failed renewal).
    @discardableResult
    public func renew(originalTransactionId: String) async throws -> JWSTransactionDecodedPayload {
        let recovering = await store.renewal(originalTransactionId: originalTransactionId)?.isInBillingRetryPeriod == true
        if await store.commitmentEnds(originalTransactionId: originalTransactionId) {
            throw ScenarioError.invalid(
                field: "action", reason: "cannot renew: the customer cancelled the commitment, which ends after this last month (expire it)")
        }
        guard let transaction = await store.renew(originalTransactionId: originalTransactionId, now: now()) else {
            throw ScenarioError.unknownTransaction(originalTransactionId)
        }
        try await notify(
            .didRenew, subtype: recovering ? .billingRecovery : nil, bundleId: transaction.bundleId ?? "", transaction: transaction,
            renewal: await store.renewal(originalTransactionId: originalTransactionId))
        return transaction
    }

    /// The renewal charge fails: `DID_FAIL_TO_RENEW`, with subtype `GRACE_PERIOD` when a grace period is given
    /// (never for a 12-month commitment: Apple gives those none).
    public func failRenewal(originalTransactionId: String, gracePeriod: TimeInterval? = nil) async throws {
        guard let (transaction, renewal) = await store.failRenewal(originalTransactionId: originalTransactionId, gracePeriod: gracePeriod, now: now()) else {
            throw ScenarioError.unknownTransaction(originalTransactionId)
        }
        try await notify(
            .didFailToRenew, subtype: renewal.gracePeriodExpiresDate == nil ? nil : .gracePeriod, bundleId: transaction.bundleId ?? "",
            transaction: transaction, renewal: renewal)
    }

    /// The subscription expires: `EXPIRED` with `VOLUNTARY` or `BILLING_RETRY`.
    public func expire(originalTransactionId: String, billingRetryExhausted: Bool = false) async throws {
        try await expire(originalTransactionId: originalTransactionId, because: billingRetryExhausted ? .billingError : .customerCancelled)
    }

    /// The subscription expires for Apple's `intent`: `EXPIRED` with `VOLUNTARY`, `BILLING_RETRY`, `PRICE_INCREASE`,
    /// `PRODUCT_NOT_FOR_SALE`, or no subtype (another reason).
    public func expire(originalTransactionId: String, because intent: ExpirationIntent) async throws {
        guard let (transaction, renewal) = await store.expire(originalTransactionId: originalTransactionId, intent: intent, now: now()) else {
            throw ScenarioError.unknownTransaction(originalTransactionId)
        }
        let subtypes: [ExpirationIntent: Subtype] = [
            .customerCancelled: .voluntary, .billingError: .billingRetry, .customerDidNotConsentToPriceIncrease: .priceIncrease,
            .productNotAvailable: .productNotForSale,
        ]
        try await notify(.expired, subtype: subtypes[intent], bundleId: transaction.bundleId ?? "", transaction: transaction, renewal: renewal)
    }

    /// The customer buys their expired subscription again, with an offer (a win-back offer, say) or not:
    /// `SUBSCRIBED` (`RESUBSCRIBE`).
    @discardableResult
    public func resubscribe(
        originalTransactionId: String, offerType: OfferType? = nil, offerIdentifier: String? = nil
    ) async throws
        -> JWSTransactionDecodedPayload
    {
        guard
            let (transaction, renewal) = await store.resubscribe(
                originalTransactionId: originalTransactionId, offerType: offerType, offerIdentifier: offerIdentifier, now: now())
        else { throw ScenarioError.unknownTransaction(originalTransactionId) }
        try await notify(.subscribed, subtype: .resubscribe, bundleId: transaction.bundleId ?? "", transaction: transaction, renewal: renewal)
        return transaction
    }

    /// The customer turns auto-renew on or off: `DID_CHANGE_RENEWAL_STATUS`.
    public func setAutoRenew(originalTransactionId: String, enabled: Bool) async throws {
        guard let renewal = await store.setAutoRenew(originalTransactionId: originalTransactionId, enabled: enabled, now: now()),
            let transaction = await store.latest(originalTransactionId: originalTransactionId)
        else { throw ScenarioError.unknownTransaction(originalTransactionId) }
        try await notify(
            .didChangeRenewalStatus, subtype: enabled ? .autoRenewEnabled : .autoRenewDisabled, bundleId: transaction.bundleId ?? "", transaction: transaction,
            renewal: renewal)
    }

    /// The customer asks Apple for a refund: `CONSUMPTION_REQUEST` with the reason.
    public func requestRefund(transactionId: String, reason: ConsumptionRequestReason = .unintendedPurchase) async throws {
        guard let transaction = await store.transactions[transactionId] else { throw ScenarioError.unknownTransaction(transactionId) }
        try await notify(
            .consumptionRequest, bundleId: transaction.bundleId ?? "", transaction: transaction,
            renewal: await store.renewal(originalTransactionId: transaction.originalTransactionId ?? ""), consumptionRequestReason: reason)
    }

    /// Apple refunds: `REFUND` with `revocationPercentage` (milliunits) and `revocationType`.
    @discardableResult
    public func refund(transactionId: String, percentage: Int32 = 100_000) async throws -> JWSTransactionDecodedPayload {
        guard let transaction = await store.refund(transactionId: transactionId, percentage: percentage) else {
            throw ScenarioError.unknownTransaction(transactionId)
        }
        try await notify(.refund, bundleId: transaction.bundleId ?? "", transaction: transaction)
        return transaction
    }

    /// Apple declines the refund request: `REFUND_DECLINED`.
    public func declineRefund(transactionId: String) async throws {
        guard let transaction = await store.transactions[transactionId] else { throw ScenarioError.unknownTransaction(transactionId) }
        try await notify(.refundDeclined, bundleId: transaction.bundleId ?? "", transaction: transaction)
    }

    /// Family Sharing ends for a family member's shared purchase (the purchaser stopped sharing it or was
    /// refunded): `REVOKE`, with `revocationType` `FAMILY_REVOKE`.
    @discardableResult
    public func revokeFamilySharing(transactionId: String) async throws -> JWSTransactionDecodedPayload {
        guard let transaction = await store.revokeFamilySharing(transactionId: transactionId, now: now()) else {
            throw ScenarioError.unknownTransaction(transactionId)
        }
        try await notify(.revoke, bundleId: transaction.bundleId ?? "", transaction: transaction)
        return transaction
    }

    /// Apple reverses a refund: `REFUND_REVERSED`.
    public func reverseRefund(transactionId: String) async throws {
        guard let transaction = await store.reverseRefund(transactionId: transactionId, now: now()) else {
            throw ScenarioError.unknownTransaction(transactionId)
        }
        try await notify(.refundReversed, bundleId: transaction.bundleId ?? "", transaction: transaction)
    }
}
