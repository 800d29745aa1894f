import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// A verified transaction, as Apple signed it, in the fields callers need.
@RPCObject(title: "Transaction") struct TransactionView {
    let transactionId: String?
    let originalTransactionId: String?
    let productId: String?
    let type: String?
    let purchaseDate: Date?
    let expiresDate: Date?
    @Field(.minimum(1)) let quantity: Int32?
    /// In milliunits of the currency.
    let price: Int64?
    let currency: String?
    let revocationDate: Date?
    /// Milliunits.
    @Field(.minimum(0)) let revocationPercentage: Int32?
    let revocationType: String?
    let revocationReason: Int32?
    @Field(.uuid) let appAccountToken: String?
    let environment: String?
    /// PURCHASED or FAMILY_SHARED.
    let inAppOwnershipType: String?
    let subscriptionGroupIdentifier: String?
    let appTransactionId: String?
    /// ISO 3166-1 alpha-3 storefront country code.
    let storefront: String?

    init(_ t: JWSTransactionDecodedPayload) {
        transactionId = t.transactionId
        originalTransactionId = t.originalTransactionId
        productId = t.productId
        type = t.type?.rawValue
        purchaseDate = t.purchaseDate?.date
        expiresDate = t.expiresDate?.date
        quantity = t.quantity
        price = t.price
        currency = t.currency
        revocationDate = t.revocationDate?.date
        revocationPercentage = t.revocationPercentage
        revocationType = t.revocationType?.rawValue
        revocationReason = t.revocationReason?.rawValue
        appAccountToken = t.appAccountToken?.description
        environment = t.environment?.rawValue
        inAppOwnershipType = t.inAppOwnershipType?.rawValue
        subscriptionGroupIdentifier = t.subscriptionGroupIdentifier
        appTransactionId = t.appTransactionId
        storefront = t.storefront
    }
}
