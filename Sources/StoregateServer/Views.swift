import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// What RPC results show of a tenant.
struct TenantView: RPCResult {
    let id: String
    let slug: String
    let name: String
    let status: String
    let createdAt: Date

    init(_ tenant: Tenant) {
        id = tenant.id.uuidString.lowercased()
        slug = tenant.slug
        name = tenant.name
        status = tenant.status.rawValue
        createdAt = tenant.createdAt
    }

    static let schema = Schema.object(
        [
            ("id", Schema.string(format: "uuid")), ("slug", Schema.string()), ("name", Schema.string()),
            ("status", Schema.enumeration(["active", "suspended"])), ("createdAt", Schema.string(format: "date-time")),
        ], required: ["id", "slug", "name", "status", "createdAt"], title: "Tenant")
}

struct AppList: RPCResult {
    let apps: [AppView]

    static let schema: JSONValue = Schema.object([("apps", Schema.array(of: AppView.schema))], required: ["apps"])
}

/// What RPC results show of an app: public facts, key ids and kinds, notification URLs. Never key material.
struct AppView: RPCResult {
    struct Key: Encodable, Sendable {
        let keyId: String
        let issuerId: String
        let kind: String
        let createdAt: Date
    }

    let id: String
    let bundleId: String
    let appAppleId: Int64?
    let environments: [String]
    let keys: [Key]
    /// Paste into App Store Connect → App Information → App Store Server Notifications (Version 2).
    let notificationURLs: [String: String]

    init(_ details: AppDetails, publicURL: String) {
        id = details.app.id.uuidString.lowercased()
        bundleId = details.app.bundleId
        appAppleId = details.app.appAppleId
        environments = details.app.environments.map(\.rawValue)
        keys = details.keys.map { Key(keyId: $0.keyId, issuerId: $0.issuerId.uuidString.lowercased(), kind: $0.kind.rawValue, createdAt: $0.createdAt) }
        notificationURLs = Dictionary(
            uniqueKeysWithValues: details.webhooks.map { ($0.environment.rawValue, NotificationURL.make(publicURL: publicURL, token: $0.token)) })
    }

    static let bundleIdSchema = Schema.string(pattern: "^[A-Za-z0-9.-]{1,155}$")

    static let schema = Schema.object(
        [
            ("id", Schema.string(format: "uuid")), ("bundleId", bundleIdSchema), ("appAppleId", Schema.integer(minimum: 1)),
            ("environments", Schema.array(of: Schema.enumeration(["Production", "Sandbox"]))),
            (
                "keys",
                Schema.array(
                    of: Schema.object(
                        [
                            ("keyId", Schema.string(pattern: "^[A-Z0-9]{10}$")), ("issuerId", Schema.string(format: "uuid")),
                            ("kind", Schema.enumeration(["inAppPurchase"])), ("createdAt", Schema.string(format: "date-time")),
                        ], required: ["keyId", "issuerId", "kind", "createdAt"]))
            ),
            ("notificationURLs", ["type": "object", "additionalProperties": Schema.string(format: "uri")]),
        ], required: ["id", "bundleId", "environments", "keys", "notificationURLs"], title: "App")
}

public enum NotificationURL {
    public static func make(publicURL: String, token: String) -> String {
        (publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL) + "/apple/notifications/" + token
    }
}

/// A verified transaction, as Apple signed it, in the fields callers need.
struct TransactionView: Encodable, Sendable {
    let transactionId: String?
    let originalTransactionId: String?
    let productId: String?
    let type: String?
    let purchaseDate: Date?
    let expiresDate: Date?
    let quantity: Int32?
    let price: Int64?
    let currency: String?
    let revocationDate: Date?
    let revocationPercentage: Int32?
    let revocationType: String?
    let revocationReason: Int32?
    let appAccountToken: String?
    let environment: String?
    let inAppOwnershipType: String?
    let subscriptionGroupIdentifier: String?
    let appTransactionId: String?
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

    static let schema = Schema.object(
        [
            ("transactionId", Schema.string()), ("originalTransactionId", Schema.string()), ("productId", Schema.string()), ("type", Schema.string()),
            ("purchaseDate", Schema.string(format: "date-time")), ("expiresDate", Schema.string(format: "date-time")),
            ("quantity", Schema.integer(minimum: 1)),
            ("price", Schema.integer("In milliunits of the currency.")), ("currency", Schema.string()),
            ("revocationDate", Schema.string(format: "date-time")),
            ("revocationPercentage", Schema.integer("Milliunits.", minimum: 0)), ("revocationType", Schema.string()),
            ("revocationReason", Schema.integer()),
            ("appAccountToken", Schema.string(format: "uuid")), ("environment", Schema.string()),
            ("inAppOwnershipType", Schema.string("PURCHASED or FAMILY_SHARED.")), ("subscriptionGroupIdentifier", Schema.string()),
            ("appTransactionId", Schema.string()), ("storefront", Schema.string("ISO 3166-1 alpha-3 storefront country code.")),
        ], required: [], title: "Transaction")
}
