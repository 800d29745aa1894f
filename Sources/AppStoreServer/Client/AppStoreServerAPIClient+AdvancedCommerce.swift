import Foundation
import NIOHTTP1

/// The Advanced Commerce API's server operations (Apple's "Advanced Commerce API" documentation: Cancel a
/// Subscription, Revoke Subscription, Request Transaction Refund, Change Subscription Price, Change
/// Subscription Metadata, Migrate a Subscription): each a `POST` with a JSON body to the App Store Server
/// API's host, with its bearer token (not the in-app request signature). Each answers the signed transaction
/// and renewal info as they stand; what the operation changes arrives later by notification. A call that
/// timed out may be sent again with the same `requestReferenceId`, as Apple says, so each is retried.
extension AppStoreServerAPIClient {
    /// Cancel a Subscription: `POST /advancedCommerce/v1/subscription/cancel/{transactionId}`; auto-renew off,
    /// access until the period ends.
    public func cancelSubscription(
        transactionId: String, request: AdvancedCommerceSubscriptionCancelRequest
    ) async throws(AppStoreServerAPIError) -> AdvancedCommerceSubscriptionCancelResponse {
        try await decode(
            AdvancedCommerceSubscriptionCancelResponse.self,
            Call(method: .POST, path: ["advancedCommerce", "v1", "subscription", "cancel", transactionId], body: try Self.json(request)))
    }

    /// Revoke Subscription: `POST /advancedCommerce/v1/subscription/revoke/{transactionId}`; ends it now with a
    /// full or prorated refund (`REFUND` follows).
    public func revokeSubscription(
        transactionId: String, request: AdvancedCommerceSubscriptionRevokeRequest
    ) async throws(AppStoreServerAPIError) -> AdvancedCommerceSubscriptionRevokeResponse {
        try await decode(
            AdvancedCommerceSubscriptionRevokeResponse.self,
            Call(method: .POST, path: ["advancedCommerce", "v1", "subscription", "revoke", transactionId], body: try Self.json(request)))
    }

    /// Request Transaction Refund: `POST /advancedCommerce/v1/transaction/requestRefund/{transactionId}`.
    public func requestTransactionRefund(
        transactionId: String, request: AdvancedCommerceRequestRefundRequest
    ) async throws(AppStoreServerAPIError) -> AdvancedCommerceRequestRefundResponse {
        try await decode(
            AdvancedCommerceRequestRefundResponse.self,
            Call(method: .POST, path: ["advancedCommerce", "v1", "transaction", "requestRefund", transactionId], body: try Self.json(request)))
    }

    /// Change Subscription Price: `POST /advancedCommerce/v1/subscription/changePrice/{transactionId}`; from the
    /// next renewal (`PRICE_CHANGE` follows).
    public func changeSubscriptionPrice(
        transactionId: String, request: AdvancedCommerceSubscriptionPriceChangeRequest
    ) async throws(AppStoreServerAPIError) -> AdvancedCommerceSubscriptionPriceChangeResponse {
        try await decode(
            AdvancedCommerceSubscriptionPriceChangeResponse.self,
            Call(method: .POST, path: ["advancedCommerce", "v1", "subscription", "changePrice", transactionId], body: try Self.json(request)))
    }

    /// Change Subscription Metadata: `POST /advancedCommerce/v1/subscription/changeMetadata/{transactionId}`
    /// (`METADATA_UPDATE` follows).
    public func changeSubscriptionMetadata(
        transactionId: String, request: AdvancedCommerceSubscriptionChangeMetadataRequest
    ) async throws(AppStoreServerAPIError) -> AdvancedCommerceSubscriptionChangeMetadataResponse {
        try await decode(
            AdvancedCommerceSubscriptionChangeMetadataResponse.self,
            Call(method: .POST, path: ["advancedCommerce", "v1", "subscription", "changeMetadata", transactionId], body: try Self.json(request)))
    }

    /// Migrate a Subscription to Advanced Commerce API: `POST /advancedCommerce/v1/subscription/migrate/{transactionId}`
    /// (`MIGRATION` follows).
    public func migrateSubscription(
        transactionId: String, request: AdvancedCommerceSubscriptionMigrateRequest
    ) async throws(AppStoreServerAPIError) -> AdvancedCommerceSubscriptionMigrateResponse {
        try await decode(
            AdvancedCommerceSubscriptionMigrateResponse.self,
            Call(method: .POST, path: ["advancedCommerce", "v1", "subscription", "migrate", transactionId], body: try Self.json(request)))
    }
}
