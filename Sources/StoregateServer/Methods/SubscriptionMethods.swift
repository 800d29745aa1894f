import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `subscriptions.*`: customers' subscriptions, kept from notifications and Apple's API, and renewal-date extensions.
enum SubscriptionMethods {
    static let all = [status, extendRenewalDate, extendAll, extensionStatus]

    @RPCParams struct StatusParams {
        @Field(.customerId) let customerId: String?
        /// The app's bundle ID; required with a transaction ID.
        @Field(.bundleId) let bundleId: String?
        /// Any transaction ID of the customer (original or not).
        @Field(.transactionId) let transactionId: String?
        /// Ask Apple first.
        let refresh: Bool?
    }

    @RPCObject struct StatusResult: JSONValueConvertible {
        let subscriptions: [SubscriptionStatus]
    }

    static let status = RPCMethod<RPCCall>(
        "subscriptions.status", tag: "subscriptions", summary: "A customer's subscriptions, per subscription group, with Apple's status.",
        description: """
            By `customerId`, or by any of the customer's transaction IDs with `bundleId`. Read from local state kept current by notifications; \
            with `refresh: true` Apple's Get All Subscription Statuses is called first and reconciled into it (older signed data never replaces newer).
            """, result: "subscriptions", errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError, ErrorCode.signedDataInvalid]
    ) { (params: StatusParams, call) in
        StatusResult(
            subscriptions: try await call.capabilities.subscriptions.status(
                tenant: call.caller.tenant, customerId: params.customerId, bundleId: params.bundleId, transactionId: params.transactionId,
                refresh: params.refresh ?? false))
    }

    @RPCParams struct ExtendParams {
        @Field(.bundleId) let bundleId: String
        /// The subscription's original transaction ID.
        @Field(.transactionId) let originalTransactionId: String
        @Field(.extendByDays) let extendByDays: Int
        @Field(.extendReasonCode) let extendReasonCode: Int
        @Field(.requestIdentifier) let requestIdentifier: String?
    }

    @RPCObject struct ExtendResult {
        let requestIdentifier: String
        let originalTransactionId: String
        let success: Bool
        /// The new renewal date.
        let effectiveDate: Date?
    }

    static let extendRenewalDate = RPCMethod<RPCCall>(
        "subscriptions.extendRenewalDate", tag: "subscriptions",
        summary: "Extends one subscription's renewal date (Apple's Extend a Subscription Renewal Date).",
        description:
            "At most two extensions per subscription in 365 days: checked locally before Apple is called (error 1009 names the earlier dates). Audited.",
        result: "extension", errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.conflict, ErrorCode.appStoreError]
    ) { (params: ExtendParams, call) in
        let result = try await call.capabilities.subscriptions.extendRenewalDate(
            tenant: call.caller.tenant, bundleId: params.bundleId, originalTransactionId: params.originalTransactionId, extendByDays: params.extendByDays,
            extendReasonCode: params.extendReasonCode, requestIdentifier: params.requestIdentifier, actor: call.caller.actor)
        return ExtendResult(
            requestIdentifier: result.requestIdentifier, originalTransactionId: result.originalTransactionId, success: result.success,
            effectiveDate: result.effectiveDate)
    }

    @RPCParams struct ExtendAllParams {
        @Field(.bundleId) let bundleId: String
        @Field(.environment) let environment: AppStoreEnvironment?
        /// The subscription's product identifier.
        @Field(.storeIdentifier) let productId: String
        @Field(.extendByDays) let extendByDays: Int
        @Field(.extendReasonCode) let extendReasonCode: Int
        /// Only these storefronts (ISO 3166-1 alpha-3).
        @Field(.characters("A-Z", count: 3...3)) let storefrontCountryCodes: [String]?
        @Field(.requestIdentifier) let requestIdentifier: String?
    }

    @RPCObject struct RequestIdentifier {
        let requestIdentifier: String
    }

    static let extendAll = RPCMethod<RPCCall>(
        "subscriptions.extendAll", tag: "subscriptions", summary: "Extends the renewal date of every active subscriber of a product.",
        description: "Apple's Extend Subscription Renewal Dates for All Active Subscribers. Follow progress with `subscriptions.extensionStatus`. Audited.",
        result: "massExtension", errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.conflict, ErrorCode.appStoreError]
    ) { (params: ExtendAllParams, call) in
        RequestIdentifier(
            requestIdentifier: try await call.capabilities.subscriptions.extendAll(
                tenant: call.caller.tenant, bundleId: params.bundleId, environment: params.environment,
                productId: params.productId, extendByDays: params.extendByDays, extendReasonCode: params.extendReasonCode,
                storefrontCountryCodes: params.storefrontCountryCodes,
                requestIdentifier: params.requestIdentifier, actor: call.caller.actor))
    }

    @RPCParams struct ExtensionStatusParams {
        @Field(.bundleId) let bundleId: String
        @Field(.environment) let environment: AppStoreEnvironment?
        /// The subscription's product identifier.
        @Field(.storeIdentifier) let productId: String
        /// The identifier `subscriptions.extendAll` returned.
        @Field(.maxLength(128)) let requestIdentifier: String
    }

    @RPCObject struct ExtensionStatusResult {
        let requestIdentifier: String
        let complete: Bool
        let completeDate: Date?
        @Field(.minimum(0)) let succeededCount: Int64?
        @Field(.minimum(0)) let failedCount: Int64?
    }

    static let extensionStatus = RPCMethod<RPCCall>(
        "subscriptions.extensionStatus", tag: "subscriptions", summary: "Apple's progress on a mass renewal-date extension.", result: "extensionStatus",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError]
    ) { (params: ExtensionStatusParams, call) in
        let status = try await call.capabilities.subscriptions.extensionStatus(
            tenant: call.caller.tenant, bundleId: params.bundleId, environment: params.environment,
            productId: params.productId, requestIdentifier: params.requestIdentifier)
        return ExtensionStatusResult(
            requestIdentifier: status.requestIdentifier ?? params.requestIdentifier, complete: status.complete ?? false,
            completeDate: status.completeDate?.date,
            succeededCount: status.succeededCount, failedCount: status.failedCount)
    }
}

extension Rule {
    static let extendByDays = Rule.range(1...90).described("Days to extend by.")
    static let extendReasonCode = Rule.range(0...3).described("0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.")
    static let requestIdentifier = Rule.maxLength(128).described("Your identifier of this request (default: a new UUID); repeat it to retry safely.")
}
