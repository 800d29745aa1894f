import AppStoreServer
import Foundation

/// Changes to a running subscription that Apple announces with their own notification types.
extension AppStoreSimulator {
    /// The customer picks another product of the group (or another billing plan): `DID_CHANGE_RENEWAL_PREF`.
    /// An upgrade takes effect at once (a new transaction for the new product, `UPGRADE`; it ends a 12-month
    /// commitment); a downgrade at the next renewal (`DOWNGRADE`), or, in a commitment, once it ends.
    /// `billingPlanType` is the plan to renew on (`MONTHLY` a commitment); `price` its price.
    @discardableResult
    public func changeRenewalPreference(
        originalTransactionId: String, to productId: String, upgrade: Bool, billingPlanType: RenewalBillingPlanType? = nil, price: Int64? = nil
    ) async throws -> JWSTransactionDecodedPayload {
        guard
            let (transaction, renewal) = await store.changeProduct(
                originalTransactionId: originalTransactionId, to: productId, now: now(), upgrade: upgrade, plan: billingPlanType, price: price)
        else { throw ScenarioError.unknownTransaction(originalTransactionId) }
        try await notify(
            .didChangeRenewalPref, subtype: upgrade ? .upgrade : .downgrade, bundleId: transaction.bundleId ?? "", transaction: transaction, renewal: renewal)
        return transaction
    }

    /// The customer redeems an offer code or promotional offer for the next renewal: `OFFER_REDEEMED`.
    public func redeemOffer(originalTransactionId: String, offerType: OfferType, offerIdentifier: String) async throws {
        guard var renewal = await store.renewal(originalTransactionId: originalTransactionId),
            let transaction = await store.latest(originalTransactionId: originalTransactionId)
        else { throw ScenarioError.unknownTransaction(originalTransactionId) }
        renewal.offerType = offerType
        renewal.offerIdentifier = offerIdentifier
        renewal.signedDate = Timestamp(now())
        await store.updateRenewal(renewal)
        try await notify(.offerRedeemed, bundleId: transaction.bundleId ?? "", transaction: transaction, renewal: renewal)
    }

    /// The billing grace period ends while Apple keeps retrying: `GRACE_PERIOD_EXPIRED`.
    public func expireGracePeriod(originalTransactionId: String) async throws {
        guard var renewal = await store.renewal(originalTransactionId: originalTransactionId), renewal.gracePeriodExpiresDate != nil,
            let transaction = await store.latest(originalTransactionId: originalTransactionId)
        else { throw ScenarioError.unknownTransaction(originalTransactionId) }
        renewal.gracePeriodExpiresDate = Timestamp(now().addingTimeInterval(-1))
        renewal.signedDate = Timestamp(now())
        await store.updateRenewal(renewal)
        try await notify(.gracePeriodExpired, bundleId: transaction.bundleId ?? "", transaction: transaction, renewal: renewal)
    }

    /// The system tells the customer of a price increase: `PRICE_INCREASE`, `PENDING` until they consent,
    /// `ACCEPTED` when they did (or needed not).
    public func increasePrice(originalTransactionId: String, to price: Int64, accepted: Bool) async throws {
        guard var renewal = await store.renewal(originalTransactionId: originalTransactionId),
            let transaction = await store.latest(originalTransactionId: originalTransactionId)
        else { throw ScenarioError.unknownTransaction(originalTransactionId) }
        renewal.renewalPrice = price
        renewal.priceIncreaseStatus = accepted ? .customerConsentedOrWasNotifiedWithoutNeedingConsent : .customerHasNotResponded
        renewal.signedDate = Timestamp(now())
        await store.updateRenewal(renewal)
        try await notify(
            .priceIncrease, subtype: accepted ? .accepted : .pending, bundleId: transaction.bundleId ?? "", transaction: transaction, renewal: renewal)
    }

    /// What the Advanced Commerce API changes in a subscription.
    public enum AdvancedCommerceChange: Sendable {
        /// Moved to the Advanced Commerce API: `MIGRATION`.
        case migration
        /// A new price from the next renewal: `PRICE_CHANGE`.
        case priceChange(Int64)
        /// New display metadata: `METADATA_UPDATE`.
        case metadataUpdate
    }

    /// A change made through the Advanced Commerce API, with its notification.
    public func advancedCommerce(originalTransactionId: String, _ change: AdvancedCommerceChange) async throws {
        guard var renewal = await store.renewal(originalTransactionId: originalTransactionId),
            var transaction = await store.latest(originalTransactionId: originalTransactionId)
        else { throw ScenarioError.unknownTransaction(originalTransactionId) }
        let type: NotificationTypeV2
        switch change {
        case .migration:
            type = .migration
        case .priceChange(let price):
            type = .priceChange
            renewal.renewalPrice = price
        case .metadataUpdate:
            type = .metadataUpdate
        }
        transaction.signedDate = Timestamp(now())
        renewal.signedDate = Timestamp(now())
        await store.update(transaction)
        await store.updateRenewal(renewal)
        try await notify(type, bundleId: transaction.bundleId ?? "", transaction: transaction, renewal: renewal)
    }

    /// A parent withdraws consent for the customer (a minor) to use the app: `RESCIND_CONSENT`, with the
    /// customer's app transaction in `appData`.
    @discardableResult
    public func rescindConsent(customer: String, bundleId: String) async throws -> AppTransaction {
        guard let appTransaction = await store.appTransaction(customer: customer, bundleId: bundleId) else { throw ScenarioError.unknownTransaction(customer) }
        try await notify(.rescindConsent, bundleId: bundleId, body: .appData(appTransaction))
        return appTransaction
    }

    /// An external purchase token that the developer has not reported within Apple's window:
    /// `EXTERNAL_PURCHASE_TOKEN` / `UNREPORTED`. Sandbox token IDs start with `SANDBOX`, as Apple's do.
    @discardableResult
    public func unreportedExternalPurchaseToken(bundleId: String) async throws -> ExternalPurchaseToken {
        try await externalPurchaseToken(bundleId: bundleId, subtype: .unreported)
    }

    /// `EXTERNAL_PURCHASE_TOKEN` with `subtype`: `UNREPORTED` (a token made a day ago, with no report),
    /// `CREATED` (a custom link token made now, of `tokenType`, expiring in 30 days) or
    /// `ACTIVE_TOKEN_REMINDER` (about `token`, announced before, still active). A new token unless `token` is given.
    @discardableResult
    public func externalPurchaseToken(
        bundleId: String, subtype: Subtype, tokenType: String? = nil, token existing: ExternalPurchaseToken? = nil
    ) async throws -> ExternalPurchaseToken {
        guard let app = await store.app(bundleId) else { throw ScenarioError.unknownApp(bundleId) }
        let id = (app.environment == .production ? "" : "SANDBOX") + UUID().uuidString.lowercased()
        let created = now().addingTimeInterval(subtype == .unreported ? -86_400 : 0)
        let customLink = subtype != .unreported
        let token =
            existing
            ?? ExternalPurchaseToken(
                externalPurchaseId: id, tokenCreationDate: Int64(created.timeIntervalSince1970 * 1000), appAppleId: app.appAppleId, bundleId: bundleId,
                tokenType: customLink ? tokenType ?? "SERVICES" : nil,
                tokenExpirationDate: customLink ? Int64(created.addingTimeInterval(30 * 86_400).timeIntervalSince1970 * 1000) : nil)
        await store.keep(token)
        try await notify(.externalPurchaseToken, subtype: subtype, bundleId: bundleId, body: .externalPurchaseToken(token))
        return token
    }
}

extension SimulatorStore {
    /// Switches a subscription's product: at once (a new transaction) for an upgrade, at renewal otherwise.
    func changeProduct(
        originalTransactionId: String, to productId: String, now: Date, upgrade: Bool, plan: RenewalBillingPlanType? = nil, price: Int64? = nil
    ) -> (JWSTransactionDecodedPayload, JWSRenewalInfoDecodedPayload)? {
        guard var renewal = renewals[originalTransactionId], var transaction = latest(originalTransactionId: originalTransactionId) else { return nil }
        if !upgrade, var after = renewal.commitmentInfo {
            // "Downgrades are deferred": the months of the commitment go on; what follows it changes.
            after.commitmentAutoRenewProductId = productId
            after.commitmentRenewalBillingPlanType = plan ?? after.commitmentRenewalBillingPlanType
            after.commitmentRenewalPrice = price ?? after.commitmentRenewalPrice
            renewal.commitmentInfo = after
            renewal.signedDate = Timestamp(now)
            renewals[originalTransactionId] = renewal
            return (transaction, renewal)
        }
        if upgrade {
            // "Upgrades are immediate": a commitment ends, and the new plan starts (a commitment of its own when MONTHLY).
            transaction.billingPlanType = transaction.billingPlanType == nil && plan == nil ? nil : .billedUpfront
            transaction.commitmentInfo = nil
            transaction.price = price ?? transaction.price
            renewal.renewalBillingPlanType = transaction.billingPlanType.map { RenewalBillingPlanType(rawValue: $0.rawValue) }
            renewal.commitmentInfo = nil
            let id = newId()
            transaction.transactionId = id
            transaction.webOrderLineItemId = newId()
            transaction.productId = productId
            transaction.purchaseDate = Timestamp(now)
            transaction.expiresDate = Timestamp(now.addingTimeInterval(periods[originalTransactionId] ?? 30 * 86_400))
            transaction.signedDate = Timestamp(now)
            transaction.transactionReason = .purchase
            transactions[id] = transaction
            transactionOrder.append(id)
            customerOf[id] = customerOf[originalTransactionId]
            orders["M" + String(id.suffix(9))] = [id]
            renewal.productId = productId
            renewal.renewalDate = transaction.expiresDate
            if plan == .monthly { beginCommitment(&transaction, &renewal, start: now, period: periods[originalTransactionId] ?? 30 * 86_400) }
            transactions[id] = transaction
        }
        renewal.autoRenewProductId = productId
        renewal.signedDate = Timestamp(now)
        renewals[originalTransactionId] = renewal
        return (transaction, renewal)
    }

    /// The customer's app transaction for one app.
    func appTransaction(customer: String, bundleId: String) -> AppTransaction? {
        appTransactions[customer].flatMap { $0.bundleId == bundleId ? $0 : nil }
    }
}
