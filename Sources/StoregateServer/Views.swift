import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// What RPC results show of a tenant.
@RPCObject(title: "Tenant") struct TenantView {
    @Field(.uuid) let id: String
    let slug: String
    let name: String
    let status: Tenant.Status
    let createdAt: Date

    init(_ tenant: Tenant) {
        id = tenant.id.uuidString.lowercased()
        slug = tenant.slug
        name = tenant.name
        status = tenant.status
        createdAt = tenant.createdAt
    }
}

@RPCObject struct AppList {
    let apps: [AppView]
}

/// What RPC results show of an app: public facts, key ids and kinds, notification URLs. Never key material.
@RPCObject(title: "App") struct AppView {
    @RPCObject struct Key {
        @Field(.keyId) let keyId: String
        @Field(.uuid) let issuerId: String
        let kind: AppKey.Kind
        let createdAt: Date
    }

    @Field(.uuid) let id: String
    @Field(.bundleId) let bundleId: String
    @Field(.minimum(1)) let appAppleId: Int64?
    @Field(.appEnvironment) let environments: [String]
    let keys: [Key]
    /// Paste into App Store Connect → App Information → App Store Server Notifications (Version 2).
    @Field(.url(maxLength: 2048)) let notificationURLs: [String: String]

    init(_ details: AppDetails, publicURL: String) {
        id = details.app.id.uuidString.lowercased()
        bundleId = details.app.bundleId
        appAppleId = details.app.appAppleId
        environments = details.app.environments.map(\.rawValue)
        keys = details.keys.map { Key(keyId: $0.keyId, issuerId: $0.issuerId.uuidString.lowercased(), kind: $0.kind, createdAt: $0.createdAt) }
        notificationURLs = Dictionary(
            uniqueKeysWithValues: details.webhooks.map { ($0.environment.rawValue, NotificationURL.make(publicURL: publicURL, token: $0.token)) })
    }
}

public enum NotificationURL {
    public static func make(publicURL: String, token: String) -> String {
        (publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL) + "/apple/notifications/" + token
    }
}

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
