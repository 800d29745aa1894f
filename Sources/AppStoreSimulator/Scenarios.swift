import AppStoreServer
import Foundation

extension SimulatorStore {
    /// What a customer buys. `customer` groups a customer's purchases (one Apple Account).
    public struct Purchase: Sendable {
        public var customer: String
        public var bundleId: String
        public var productId: String
        public var type: ProductType
        public var appAccountToken: UUID?
        public var quantity: Int32 = 1
        public var price: Int64 = 990
        public var currency = "USD"
        public var storefront = "USA"
        public var subscriptionGroupIdentifier: String?
        public var period: TimeInterval = 30 * 86_400
        public var familyShared = false
        public var offerType: OfferType?
        public var offerIdentifier: String?
        /// `FREE_TRIAL` makes a free trial: the transaction costs 0 and the renewal `price`.
        public var offerDiscountType: OfferDiscountType?
        /// The offer's length, ISO 8601 (`P1W`).
        public var offerPeriod: String?
        public var purchaseDate = Date()
        /// `MONTHLY` buys a monthly subscription with a 12-month commitment (`price` is the monthly price,
        /// `period` a month); `BILLED_UPFRONT` a standard one, said so; nil a standard one as before 2026.
        public var billingPlanType: BillingPlanType?

        public init(customer: String, bundleId: String, productId: String, type: ProductType, appAccountToken: UUID? = nil) {
            self.customer = customer
            self.bundleId = bundleId
            self.productId = productId
            self.type = type
            self.appAccountToken = appAccountToken
        }
    }

    /// Makes a purchase: a transaction (with an order ID), renewal info for subscriptions, and the
    /// customer's app transaction on their first purchase. Returns the transaction.
    @discardableResult
    public func purchase(_ purchase: Purchase) -> JWSTransactionDecodedPayload {
        let id = newId()
        let app = apps[purchase.bundleId]
        let environment = app?.environment ?? .sandbox
        if appTransactions[purchase.customer] == nil {
            appTransactions[purchase.customer] = AppTransaction(
                receiptType: environment, appAppleId: app?.appAppleId, bundleId: purchase.bundleId, applicationVersion: "1",
                receiptCreationDate: Timestamp(Date()), originalPurchaseDate: Timestamp(purchase.purchaseDate), originalApplicationVersion: "1",
                appTransactionId: newId(), originalPlatform: .iOS)
        }
        let subscription = purchase.type == .autoRenewableSubscription
        var transaction = JWSTransactionDecodedPayload(
            originalTransactionId: id, transactionId: id, webOrderLineItemId: subscription ? newId() : nil, bundleId: purchase.bundleId,
            productId: purchase.productId, subscriptionGroupIdentifier: subscription ? purchase.subscriptionGroupIdentifier ?? "group.default" : nil,
            purchaseDate: Timestamp(purchase.purchaseDate), originalPurchaseDate: Timestamp(purchase.purchaseDate),
            expiresDate: subscription || purchase.type == .nonRenewingSubscription ? Timestamp(purchase.purchaseDate + purchase.period) : nil,
            quantity: purchase.quantity, type: purchase.type, appAccountToken: purchase.appAccountToken.map(LowercaseUUID.init),
            inAppOwnershipType: purchase.familyShared ? .familyShared : .purchased, signedDate: Timestamp(Date()), offerType: purchase.offerType,
            offerIdentifier: purchase.offerIdentifier, environment: environment, storefront: purchase.storefront, storefrontId: "143441",
            transactionReason: .purchase, currency: purchase.currency, price: purchase.offerDiscountType == .freeTrial ? 0 : purchase.price,
            offerDiscountType: purchase.offerDiscountType, appTransactionId: appTransactions[purchase.customer]?.appTransactionId,
            offerPeriod: purchase.offerPeriod)
        if subscription {
            periods[id] = purchase.period
            var renewal = JWSRenewalInfoDecodedPayload(
                originalTransactionId: id, autoRenewProductId: purchase.productId, productId: purchase.productId, autoRenewStatus: .on,
                isInBillingRetryPeriod: false, signedDate: Timestamp(Date()), environment: environment,
                recentSubscriptionStartDate: Timestamp(purchase.purchaseDate), renewalDate: transaction.expiresDate, currency: purchase.currency,
                renewalPrice: purchase.price, appAccountToken: transaction.appAccountToken, appTransactionId: transaction.appTransactionId)
            if purchase.billingPlanType == .monthly {
                beginCommitment(&transaction, &renewal, start: purchase.purchaseDate, period: purchase.period)
            } else if let plan = purchase.billingPlanType {
                transaction.billingPlanType = plan
                renewal.renewalBillingPlanType = RenewalBillingPlanType(rawValue: plan.rawValue)
            }
            renewals[id] = renewal
        }
        transactions[id] = transaction
        transactionOrder.append(id)
        customerOf[id] = purchase.customer
        orders["M" + String(id.suffix(9))] = [id]
        return transaction
    }

    /// The order ID of a transaction, as on the customer's receipt email.
    public func orderId(of transactionId: String) -> String? { orders.first { $0.value.contains(transactionId) }?.key }

    /// Refunds a transaction: `percentage` in milliunits (100000 = full).
    @discardableResult
    public func refund(transactionId: String, percentage: Int32 = 100_000, reason: RevocationReason = .refundedForOtherReason) -> JWSTransactionDecodedPayload?
    {
        guard var transaction = transactions[transactionId] else { return nil }
        transaction.revocationDate = Timestamp(Date())
        transaction.revocationReason = reason
        transaction.revocationPercentage = percentage
        transaction.revocationType = percentage >= 100_000 ? .refundFull : .refundProrated
        transaction.signedDate = Timestamp(Date())
        transactions[transactionId] = transaction
        endCommitment(refunded: transaction)
        return transaction
    }

    /// All of a customer's transactions, for tests.
    public func transactions(ofCustomer customer: String) -> [JWSTransactionDecodedPayload] {
        transactionOrder.compactMap { transactions[$0] }.filter { customerOf[$0.transactionId ?? ""] == customer }
    }
}

extension SimulatorStore {
    func latest(originalTransactionId: String) -> JWSTransactionDecodedPayload? {
        transactionOrder.compactMap { transactions[$0] }.last { $0.originalTransactionId == originalTransactionId }
    }

    /// A renewal: a new transaction in the same subscription, one period on from where the last ended, and
    /// charged now. Renewing before the period ends (a test does not wait a month) dates the charge now,
    /// as Apple dates no transaction after it signs it: the new period still starts at the old one's end.
    func renew(originalTransactionId: String, now: Date) -> JWSTransactionDecodedPayload? {
        guard let previous = latest(originalTransactionId: originalTransactionId), previous.type == .autoRenewableSubscription else { return nil }
        let id = newId()
        let start = max(previous.expiresDate?.date ?? now, now.addingTimeInterval(-1))
        let period = periods[originalTransactionId] ?? 30 * 86_400
        var next = previous
        next.transactionId = id
        next.webOrderLineItemId = newId()
        // After the previous period's purchase, if only by a millisecond (a test renews many times a second).
        let bought = previous.purchaseDate.map { $0.date.addingTimeInterval(0.001) } ?? now
        next.purchaseDate = Timestamp(max(min(start, now), bought))
        next.expiresDate = Timestamp(start.addingTimeInterval(max(period, 1)))
        next.signedDate = Timestamp(now)
        next.transactionReason = .renewal
        // An offer redeemed for the next renewal (OFFER_REDEEMED) applies to it, once; a trial's ends.
        next.offerType = renewals[originalTransactionId]?.offerType
        next.offerIdentifier = renewals[originalTransactionId]?.offerIdentifier
        next.offerDiscountType = renewals[originalTransactionId]?.offerDiscountType
        next.offerPeriod = renewals[originalTransactionId]?.offerPeriod
        // It renews as the product and at the price the renewal info says (a downgrade, a price increase).
        if previous.commitmentInfo == nil, let renewal = renewals[originalTransactionId] {
            next.productId = renewal.autoRenewProductId ?? previous.productId
            next.price = renewal.renewalPrice ?? previous.price
        }
        next.appAccountToken = appAccountTokens[originalTransactionId] ?? previous.appAccountToken
        let recovering = renewals[originalTransactionId]?.isInBillingRetryPeriod == true
        guard continueCommitment(&next, after: previous, start: start, period: period, recovering: recovering) else { return nil }
        transactions[id] = next
        transactionOrder.append(id)
        customerOf[id] = customerOf[originalTransactionId]
        orders["M" + String(id.suffix(9))] = [id]
        if var renewal = renewals[originalTransactionId] {
            renewal.isInBillingRetryPeriod = false
            renewal.gracePeriodExpiresDate = nil
            renewal.expirationIntent = nil
            renewal.renewalDate = next.expiresDate
            renewal.renewalPrice = next.billingPlanType == .billedUpfront ? next.price : renewal.renewalPrice
            renewal.offerType = nil
            renewal.offerIdentifier = nil
            renewal.offerDiscountType = nil
            renewal.offerPeriod = nil
            renewal.productId = next.productId
            renewal.signedDate = Timestamp(now)
            renewals[originalTransactionId] = renewal
        }
        return next
    }

    /// The renewal charge failed: the period ends now; billing retry starts, with a grace period if given.
    func failRenewal(originalTransactionId: String, gracePeriod: TimeInterval?, now: Date) -> (JWSTransactionDecodedPayload, JWSRenewalInfoDecodedPayload)? {
        guard var latest = latest(originalTransactionId: originalTransactionId), var renewal = renewals[originalTransactionId] else { return nil }
        latest.expiresDate = Timestamp(now.addingTimeInterval(-1))
        latest.signedDate = Timestamp(now)
        update(latest)
        renewal.isInBillingRetryPeriod = true
        renewal.expirationIntent = .billingError
        // Apple gives a 12-month commitment no grace period.
        renewal.gracePeriodExpiresDate = latest.billingPlanType == .monthly ? nil : gracePeriod.map { Timestamp(now.addingTimeInterval($0)) }
        renewal.signedDate = Timestamp(now)
        renewals[originalTransactionId] = renewal
        return (latest, renewal)
    }

    /// The subscription ends now, for Apple's `intent`: voluntarily (auto-renew off), after billing retry
    /// gave up, without consent to a price increase, or with the product off sale.
    func expire(originalTransactionId: String, intent: ExpirationIntent, now: Date) -> (JWSTransactionDecodedPayload, JWSRenewalInfoDecodedPayload)? {
        guard var latest = latest(originalTransactionId: originalTransactionId), var renewal = renewals[originalTransactionId] else { return nil }
        if (latest.expiresDate?.date ?? now) > now { latest.expiresDate = Timestamp(now.addingTimeInterval(-1)) }
        latest.signedDate = Timestamp(now)
        update(latest)
        renewal.autoRenewStatus = .off
        renewal.isInBillingRetryPeriod = false
        renewal.gracePeriodExpiresDate = nil
        renewal.expirationIntent = intent
        renewal.signedDate = Timestamp(now)
        renewals[originalTransactionId] = renewal
        return (latest, renewal)
    }

    /// The customer buys an expired subscription again: a new transaction in the same series, bought now.
    func resubscribe(
        originalTransactionId: String, offerType: OfferType?, offerIdentifier: String?, now: Date
    ) -> (
        JWSTransactionDecodedPayload, JWSRenewalInfoDecodedPayload
    )? {
        guard let previous = latest(originalTransactionId: originalTransactionId), var renewal = renewals[originalTransactionId] else { return nil }
        let id = newId()
        var next = previous
        next.transactionId = id
        next.webOrderLineItemId = newId()
        next.purchaseDate = Timestamp(max(now, previous.expiresDate?.date.addingTimeInterval(0.001) ?? now))
        next.expiresDate = Timestamp((next.purchaseDate?.date ?? now).addingTimeInterval(periods[originalTransactionId] ?? 30 * 86_400))
        next.signedDate = Timestamp(now)
        next.transactionReason = .purchase
        next.offerType = offerType
        next.offerIdentifier = offerIdentifier
        next.offerDiscountType = offerType == nil ? nil : .payUpFront
        next.offerPeriod = nil
        next.price = renewal.renewalPrice ?? previous.price
        transactions[id] = next
        transactionOrder.append(id)
        customerOf[id] = customerOf[originalTransactionId]
        orders["M" + String(id.suffix(9))] = [id]
        renewal.autoRenewStatus = .on
        renewal.expirationIntent = nil
        renewal.renewalDate = next.expiresDate
        renewal.signedDate = Timestamp(now)
        renewals[originalTransactionId] = renewal
        return (next, renewal)
    }

    func setAutoRenew(originalTransactionId: String, enabled: Bool, now: Date) -> JWSRenewalInfoDecodedPayload? {
        guard var renewal = renewals[originalTransactionId] else { return nil }
        if renewal.commitmentInfo != nil {
            // In a commitment the months go on being billed: only the commitment's renewal turns off.
            renewal.commitmentInfo?.commitmentAutoRenewStatus = enabled ? .on : .off
        } else {
            renewal.autoRenewStatus = enabled ? .on : .off
        }
        renewal.signedDate = Timestamp(now)
        renewals[originalTransactionId] = renewal
        return renewal
    }

    /// Ends a family member's access to a shared purchase; nil unless the transaction is family-shared.
    func revokeFamilySharing(transactionId: String, now: Date) -> JWSTransactionDecodedPayload? {
        guard var transaction = transactions[transactionId], transaction.inAppOwnershipType == .familyShared else { return nil }
        transaction.revocationDate = Timestamp(now)
        transaction.revocationReason = .refundedForOtherReason
        transaction.revocationType = .familyRevoke
        transaction.signedDate = Timestamp(now)
        transactions[transactionId] = transaction
        return transaction
    }

    /// Undoes a refund (`REFUND_REVERSED`).
    func reverseRefund(transactionId: String, now: Date) -> JWSTransactionDecodedPayload? {
        guard var transaction = transactions[transactionId], transaction.revocationDate != nil else { return nil }
        transaction.revocationDate = nil
        transaction.revocationReason = nil
        transaction.revocationType = nil
        transaction.revocationPercentage = nil
        transaction.signedDate = Timestamp(now)
        transactions[transactionId] = transaction
        return transaction
    }
}
