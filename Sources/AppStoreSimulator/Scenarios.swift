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
        public var purchaseDate = Date()

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
        let transaction = JWSTransactionDecodedPayload(
            originalTransactionId: id, transactionId: id, webOrderLineItemId: subscription ? newId() : nil, bundleId: purchase.bundleId,
            productId: purchase.productId, subscriptionGroupIdentifier: subscription ? purchase.subscriptionGroupIdentifier ?? "group.default" : nil,
            purchaseDate: Timestamp(purchase.purchaseDate), originalPurchaseDate: Timestamp(purchase.purchaseDate),
            expiresDate: subscription || purchase.type == .nonRenewingSubscription ? Timestamp(purchase.purchaseDate + purchase.period) : nil,
            quantity: purchase.quantity, type: purchase.type, appAccountToken: purchase.appAccountToken.map(LowercaseUUID.init),
            inAppOwnershipType: purchase.familyShared ? .familyShared : .purchased, signedDate: Timestamp(Date()), offerType: purchase.offerType,
            offerIdentifier: purchase.offerIdentifier, environment: environment, storefront: purchase.storefront, storefrontId: "143441",
            transactionReason: .purchase, currency: purchase.currency, price: purchase.price, appTransactionId: appTransactions[purchase.customer]?.appTransactionId)
        transactions[id] = transaction
        transactionOrder.append(id)
        customerOf[id] = purchase.customer
        orders["M" + String(id.suffix(9))] = [id]
        if subscription {
            renewals[id] = JWSRenewalInfoDecodedPayload(
                originalTransactionId: id, autoRenewProductId: purchase.productId, productId: purchase.productId, autoRenewStatus: .on,
                isInBillingRetryPeriod: false, signedDate: Timestamp(Date()), environment: environment,
                recentSubscriptionStartDate: Timestamp(purchase.purchaseDate), renewalDate: transaction.expiresDate, currency: purchase.currency,
                renewalPrice: purchase.price, appAccountToken: transaction.appAccountToken, appTransactionId: transaction.appTransactionId)
        }
        return transaction
    }

    /// The order ID of a transaction, as on the customer's receipt email.
    public func orderId(of transactionId: String) -> String? { orders.first { $0.value.contains(transactionId) }?.key }

    /// Refunds a transaction: `percentage` in milliunits (100000 = full).
    @discardableResult
    public func refund(transactionId: String, percentage: Int32 = 100_000, reason: RevocationReason = .refundedForOtherReason) -> JWSTransactionDecodedPayload? {
        guard var transaction = transactions[transactionId] else { return nil }
        transaction.revocationDate = Timestamp(Date())
        transaction.revocationReason = reason
        transaction.revocationPercentage = percentage
        transaction.revocationType = percentage >= 100_000 ? .refundFull : .refundProrated
        transaction.signedDate = Timestamp(Date())
        transactions[transactionId] = transaction
        return transaction
    }

    /// All of a customer's transactions, for tests.
    public func transactions(ofCustomer customer: String) -> [JWSTransactionDecodedPayload] {
        transactionOrder.compactMap { transactions[$0] }.filter { customerOf[$0.transactionId ?? ""] == customer }
    }
}
