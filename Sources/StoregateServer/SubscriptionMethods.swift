import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `subscriptions.*` and `entitlements.list`: what customers have, kept from notifications and Apple's API.
enum SubscriptionMethods {
    static let all = [status, entitlements, extendRenewalDate, extendAll, extensionStatus]

    struct Subscription: Encodable, Sendable {
        let bundleId: String
        let environment: String
        let subscriptionGroupIdentifier: String?
        let originalTransactionId: String
        let latestTransactionId: String
        let productId: String
        let status: String
        let statusCode: Int32
        let purchaseDate: Date?
        let expiresDate: Date?
        let autoRenewStatus: Bool?
        let autoRenewProductId: String?
        let inBillingRetry: Bool
        let gracePeriodExpiresDate: Date?
        let offerType: Int32?
        let offerIdentifier: String?
        let price: Int64?
        let currency: String?
        let offerPeriod: String?
        let renewal: Renewal?
        let updatedAt: Date?

        /// The next renewal, from Apple's renewal info.
        struct Renewal: Encodable, Sendable {
            let price: Int64?
            let currency: String?
            let offerType: Int32?
            let offerIdentifier: String?
            let offerPeriod: String?
            let eligibleWinBackOfferIds: [String]?
            let priceIncreaseStatus: Int32?
            let expirationIntent: Int32?

            init(_ t: RenewalTerms) {
                price = t.renewalPrice
                currency = t.currency
                offerType = t.offerType?.rawValue
                offerIdentifier = t.offerIdentifier
                offerPeriod = t.offerPeriod
                eligibleWinBackOfferIds = t.eligibleWinBackOfferIds
                priceIncreaseStatus = t.priceIncreaseStatus?.rawValue
                expirationIntent = t.expirationIntent?.rawValue
            }
        }

        init(_ state: SubscriptionState, bundles: [UUID: String]) {
            let r = state.subscription
            bundleId = bundles[r.appId] ?? ""
            environment = r.environment.rawValue
            subscriptionGroupIdentifier = r.subscriptionGroupIdentifier
            originalTransactionId = r.originalTransactionId
            latestTransactionId = r.latestTransactionId
            productId = r.productId
            status = state.statusName.rawValue
            statusCode = state.status.rawValue
            purchaseDate = r.purchaseDate
            expiresDate = r.expiresDate
            autoRenewStatus = r.autoRenewStatus
            autoRenewProductId = r.autoRenewProductId
            inBillingRetry = r.inBillingRetry
            gracePeriodExpiresDate = r.gracePeriodExpiresDate
            offerType = r.offerType?.rawValue
            offerIdentifier = r.offerIdentifier
            price = r.price
            currency = r.currency
            offerPeriod = r.offerPeriod
            renewal = r.renewal.map(Renewal.init)
            updatedAt = r.updatedAt
        }
    }

    static let subscriptionSchema = Schema.object(
        [
            ("bundleId", Schema.string()), ("environment", Schema.enumeration(["Production", "Sandbox", "Xcode", "LocalTesting"])),
            ("subscriptionGroupIdentifier", Schema.string()), ("originalTransactionId", Schema.string()), ("latestTransactionId", Schema.string()),
            ("productId", Schema.string()),
            (
                "status",
                Schema.enumeration(
                    SubscriptionState.StatusName.allCases.map(\.rawValue), "An active subscription past its expiry with no renewal reads as expired.")
            ),
            ("statusCode", Schema.integer("Apple's status: 1 active, 2 expired, 3 billing retry, 4 billing grace period, 5 revoked.")),
            ("purchaseDate", Schema.string(format: "date-time")), ("expiresDate", Schema.string(format: "date-time")),
            ("autoRenewStatus", ["type": "boolean"]), ("autoRenewProductId", Schema.string("The product the subscription renews to.")),
            ("inBillingRetry", ["type": "boolean"]), ("gracePeriodExpiresDate", Schema.string(format: "date-time")),
            ("offerType", Schema.integer("Apple's offerType of the latest transaction: 1 introductory, 2 promotional, 3 offer code, 4 win-back.")),
            ("offerIdentifier", Schema.string()), ("price", Schema.integer("In milliunits of the currency.")), ("currency", Schema.string("ISO 4217.")),
            ("offerPeriod", Schema.string("The latest transaction's offer duration, ISO 8601 (P1M).")),
            (
                "renewal",
                Schema.object(
                    [
                        ("price", Schema.integer("The renewal price, in milliunits of the currency.")), ("currency", Schema.string("ISO 4217.")),
                        ("offerType", Schema.integer("The offer that applies at renewal, as offerType above.")), ("offerIdentifier", Schema.string()),
                        ("offerPeriod", Schema.string("ISO 8601 duration of that offer.")),
                        ("eligibleWinBackOfferIds", Schema.array(of: Schema.string("A win-back offer the customer may redeem."))),
                        ("priceIncreaseStatus", Schema.integer("Apple's: 0 not yet responded, 1 consented to the price increase.")),
                        (
                            "expirationIntent",
                            Schema.integer("Apple's: 1 cancelled, 2 billing error, 3 declined a price increase, 4 product unavailable, 5 other.")
                        ),
                    ], required: [], title: "RenewalTerms")
            ),
            ("updatedAt", Schema.string(format: "date-time")),
        ],
        required: ["bundleId", "environment", "originalTransactionId", "latestTransactionId", "productId", "status", "statusCode", "inBillingRetry"],
        title: "Subscription")

    /// Bundle IDs of the caller's apps `appIds`, for results that name apps.
    static func bundles(_ call: RPCCall, covering appIds: some Sequence<UUID>) async throws -> [UUID: String] {
        try await call.services.apps.bundleIds(tenant: call.caller.tenant, covering: appIds)
    }

    static let bundleId = RPCParam("bundleId", "The app's bundle ID, within the caller's tenant.", schema: AppView.bundleIdSchema)
    static let optionalBundleId = RPCParam("bundleId", "The app's bundle ID; required with a transaction ID.", schema: AppView.bundleIdSchema, required: false)
    static let transactionIdSchema = Schema.string(pattern: "^[0-9]{1,32}$")
    static let environment = RPCParam(
        "environment", "Production or Sandbox (default: Production when the app has it).", schema: Schema.enumeration(["Production", "Sandbox"]),
        required: false)

    struct StatusParams: RPCParams {
        let customerId: String?
        let bundleId: String?
        let transactionId: String?
        let refresh: Bool?

        static let parameters: [RPCParam] = [
            RPCParam("customerId", "The tenant's own identifier of the customer.", schema: Schema.string(maxLength: 128), required: false),
            SubscriptionMethods.optionalBundleId,
            RPCParam("transactionId", "Any transaction ID of the customer (original or not).", schema: transactionIdSchema, required: false),
            RPCParam("refresh", "Ask Apple first.", schema: ["type": "boolean"], required: false),
        ]
    }

    struct StatusResult: RPCResult {
        let subscriptions: [Subscription]

        static let schema: JSONValue = Schema.object([("subscriptions", Schema.array(of: subscriptionSchema))], required: ["subscriptions"])
    }

    static let status = RPCMethod<RPCCall>(
        "subscriptions.status", tag: "subscriptions", summary: "A customer's subscriptions, per subscription group, with Apple's status.",
        description: """
            By `customerId`, or by any of the customer's transaction IDs with `bundleId`. Read from local state kept current by notifications; \
            with `refresh: true` Apple's Get All Subscription Statuses is called first and reconciled into it (older signed data never replaces newer).
            """, result: "subscriptions", errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError, ErrorCode.signedDataInvalid]
    ) { (params: StatusParams, call) in
        let states = try await call.services.subscriptions.status(
            tenant: call.caller.tenant, customerId: params.customerId, bundleId: params.bundleId, transactionId: params.transactionId,
            refresh: params.refresh ?? false)
        let bundles = try await bundles(call, covering: states.map(\.subscription.appId))
        return StatusResult(subscriptions: states.map { Subscription($0, bundles: bundles) })
    }

    struct EntitlementsParams: RPCParams {
        let customerId: String

        static let parameters: [RPCParam] = [RPCParam("customerId", "The tenant's own identifier of the customer.", schema: Schema.string(maxLength: 128))]
    }

    struct Purchase: Encodable, Sendable {
        let bundleId: String
        let environment: String
        let productId: String
        let type: String
        let transactionId: String
        let originalTransactionId: String
        let purchaseDate: Date?
        let expiresDate: Date?
        let quantity: Int

        init(_ p: OneTimePurchase, bundles: [UUID: String]) {
            bundleId = bundles[p.appId] ?? ""
            environment = p.environment.rawValue
            productId = p.productId
            type = p.productType.rawValue
            transactionId = p.transactionId
            originalTransactionId = p.originalTransactionId
            purchaseDate = p.purchaseDate
            expiresDate = p.expiresDate
            quantity = p.quantity
        }
    }

    struct EntitlementsResult: RPCResult {
        let customerId: String
        let subscriptions: [Subscription]
        let purchases: [Purchase]

        static let schema: JSONValue = Schema.object(
            [
                ("customerId", Schema.string()), ("subscriptions", Schema.array(of: subscriptionSchema)),
                ("purchases", Schema.array(of: purchaseSchema)),
            ], required: ["customerId", "subscriptions", "purchases"])
    }

    static let purchaseSchema = Schema.object(
        [
            ("bundleId", Schema.string()), ("environment", Schema.string()), ("productId", Schema.string()),
            ("type", Schema.enumeration(["Consumable", "Non-Consumable", "Non-Renewing Subscription"])), ("transactionId", Schema.string()),
            ("originalTransactionId", Schema.string()), ("purchaseDate", Schema.string(format: "date-time")),
            ("expiresDate", Schema.string(format: "date-time")), ("quantity", Schema.integer(minimum: 1)),
        ], required: ["bundleId", "environment", "productId", "type", "transactionId", "originalTransactionId", "quantity"])

    static let entitlements = RPCMethod<RPCCall>(
        "entitlements.list", tag: "subscriptions", summary: "What a customer may use now.",
        description: """
            Subscriptions that grant access (active, or in the billing grace period) and purchases of every other type \
            (consumable, non-consumable, non-renewing subscription) that are neither revoked nor expired.
            """, result: "entitlements", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (params: EntitlementsParams, call) in
        let (subscriptions, purchases) = try await call.services.subscriptions.entitlements(tenant: call.caller.tenant, customerId: params.customerId)
        let bundles = try await bundles(call, covering: subscriptions.map(\.subscription.appId) + purchases.map(\.appId))
        return EntitlementsResult(
            customerId: params.customerId, subscriptions: subscriptions.map { Subscription($0, bundles: bundles) },
            purchases: purchases.map { Purchase($0, bundles: bundles) })
    }

    static let extendByDays = RPCParam("extendByDays", "1 to 90 days.", schema: Schema.integer(minimum: 1))
    static let extendReasonCode = RPCParam(
        "extendReasonCode", "0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.", schema: Schema.integer(minimum: 0))
    static let requestIdentifier = RPCParam(
        "requestIdentifier", "Your identifier of this request (default: a new UUID); repeat it to retry safely.", schema: Schema.string(maxLength: 128),
        required: false)

    struct ExtendParams: RPCParams {
        let bundleId: String
        let originalTransactionId: String
        let extendByDays: Int
        let extendReasonCode: Int
        let requestIdentifier: String?

        static let parameters: [RPCParam] = [
            SubscriptionMethods.bundleId, RPCParam("originalTransactionId", "The subscription's original transaction ID.", schema: transactionIdSchema),
            SubscriptionMethods.extendByDays, SubscriptionMethods.extendReasonCode,
            SubscriptionMethods.requestIdentifier,
        ]
    }

    struct ExtendResult: RPCResult {
        let requestIdentifier: String
        let originalTransactionId: String
        let success: Bool
        let effectiveDate: Date?

        static let schema: JSONValue = Schema.object(
            [
                ("requestIdentifier", Schema.string()), ("originalTransactionId", Schema.string()), ("success", ["type": "boolean"]),
                ("effectiveDate", Schema.string("The new renewal date.", format: "date-time")),
            ], required: ["requestIdentifier", "originalTransactionId", "success"])
    }

    static let extendRenewalDate = RPCMethod<RPCCall>(
        "subscriptions.extendRenewalDate", tag: "subscriptions",
        summary: "Extends one subscription's renewal date (Apple's Extend a Subscription Renewal Date).",
        description:
            "At most two extensions per subscription in 365 days: checked locally before Apple is called (error 1009 names the earlier dates). Audited.",
        result: "extension", errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.conflict, ErrorCode.appStoreError]
    ) { (params: ExtendParams, call) in
        let result = try await call.services.subscriptions.extendRenewalDate(
            tenant: call.caller.tenant, bundleId: params.bundleId, originalTransactionId: params.originalTransactionId, extendByDays: params.extendByDays,
            extendReasonCode: params.extendReasonCode, requestIdentifier: params.requestIdentifier, actor: call.caller.actor)
        return ExtendResult(
            requestIdentifier: result.requestIdentifier, originalTransactionId: result.originalTransactionId, success: result.success,
            effectiveDate: result.effectiveDate)
    }

    struct ExtendAllParams: RPCParams {
        let bundleId: String
        let environment: AppStoreEnvironment?
        let productId: String
        let extendByDays: Int
        let extendReasonCode: Int
        let storefrontCountryCodes: [String]?
        let requestIdentifier: String?

        static let parameters: [RPCParam] = [
            SubscriptionMethods.bundleId, SubscriptionMethods.environment, SubscriptionMethods.productId, SubscriptionMethods.extendByDays,
            SubscriptionMethods.extendReasonCode,
            RPCParam(
                "storefrontCountryCodes", "Only these storefronts (ISO 3166-1 alpha-3).", schema: Schema.array(of: Schema.string(pattern: "^[A-Z]{3}$")),
                required: false),
            SubscriptionMethods.requestIdentifier,
        ]
    }

    struct RequestIdentifier: RPCResult {
        let requestIdentifier: String

        static let schema: JSONValue = Schema.object([("requestIdentifier", Schema.string())], required: ["requestIdentifier"])
    }

    static let productId = RPCParam("productId", "The subscription's product identifier.", schema: Schema.string(maxLength: 255))

    static let extendAll = RPCMethod<RPCCall>(
        "subscriptions.extendAll", tag: "subscriptions", summary: "Extends the renewal date of every active subscriber of a product.",
        description: "Apple's Extend Subscription Renewal Dates for All Active Subscribers. Follow progress with `subscriptions.extensionStatus`. Audited.",
        result: "massExtension", errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.conflict, ErrorCode.appStoreError]
    ) { (params: ExtendAllParams, call) in
        RequestIdentifier(
            requestIdentifier: try await call.services.subscriptions.extendAll(
                tenant: call.caller.tenant, bundleId: params.bundleId, environment: params.environment,
                productId: params.productId, extendByDays: params.extendByDays, extendReasonCode: params.extendReasonCode,
                storefrontCountryCodes: params.storefrontCountryCodes,
                requestIdentifier: params.requestIdentifier, actor: call.caller.actor))
    }

    struct ExtensionStatusParams: RPCParams {
        let bundleId: String
        let environment: AppStoreEnvironment?
        let productId: String
        let requestIdentifier: String

        static let parameters: [RPCParam] = [
            SubscriptionMethods.bundleId, SubscriptionMethods.environment, SubscriptionMethods.productId,
            RPCParam("requestIdentifier", "The identifier `subscriptions.extendAll` returned.", schema: Schema.string(maxLength: 128)),
        ]
    }

    struct ExtensionStatusResult: RPCResult {
        let requestIdentifier: String
        let complete: Bool
        let completeDate: Date?
        let succeededCount: Int64?
        let failedCount: Int64?

        static let schema: JSONValue = Schema.object(
            [
                ("requestIdentifier", Schema.string()), ("complete", ["type": "boolean"]), ("completeDate", Schema.string(format: "date-time")),
                ("succeededCount", Schema.integer(minimum: 0)), ("failedCount", Schema.integer(minimum: 0)),
            ], required: ["requestIdentifier", "complete"])
    }

    static let extensionStatus = RPCMethod<RPCCall>(
        "subscriptions.extensionStatus", tag: "subscriptions", summary: "Apple's progress on a mass renewal-date extension.", result: "extensionStatus",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError]
    ) { (params: ExtensionStatusParams, call) in
        let status = try await call.services.subscriptions.extensionStatus(
            tenant: call.caller.tenant, bundleId: params.bundleId, environment: params.environment,
            productId: params.productId, requestIdentifier: params.requestIdentifier)
        return ExtensionStatusResult(
            requestIdentifier: status.requestIdentifier ?? params.requestIdentifier, complete: status.complete ?? false,
            completeDate: status.completeDate?.date,
            succeededCount: status.succeededCount, failedCount: status.failedCount)
    }
}
