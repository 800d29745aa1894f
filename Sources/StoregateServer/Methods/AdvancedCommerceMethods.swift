import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `advancedCommerce.*`: the Advanced Commerce API's server operations, one method each, with Apple's request
/// bodies in Apple's words (`SKU` included). `requestReferenceId` identifies the request to Apple: send the same
/// one again after a timeout and Apple does the operation once; absent, Storegate makes one and returns it.
enum AdvancedCommerceMethods {
    static let all = [cancel, revoke, requestRefund, changePrice, changeMetadata, migrate]
    static let errors = [
        ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError, ErrorCode.keyUnavailable, ErrorCode.signedDataInvalid,
    ]

    @RPCObject(title: "AdvancedCommerceResult") struct Result {
        /// The request's reference: the one sent, or the one Storegate made.
        @Field(.uuid) let requestReferenceId: String
        /// Where Apple knew the transaction: Production or Sandbox.
        @Field(.appStoreEnvironment) let environment: String
        /// Apple's answer, verified: the transaction as it stands (the subscription's latest).
        let transactionId: String?
        let originalTransactionId: String?
        let productId: String?
        let expiresDate: Date?
        let revocationDate: Date?
        /// The renewal info's, when Apple answered one: whether the subscription renews.
        let autoRenewStatus: Bool?

        init(_ outcome: AdvancedCommerceService.Outcome, reference: UUID) {
            requestReferenceId = reference.uuidString.lowercased()
            environment = outcome.environment.rawValue
            transactionId = outcome.transaction.transactionId
            originalTransactionId = outcome.transaction.originalTransactionId
            productId = outcome.transaction.productId
            expiresDate = outcome.transaction.expiresDate?.date
            revocationDate = outcome.transaction.revocationDate?.date
            autoRenewStatus = outcome.renewal?.autoRenewStatus.map { $0 == .on }
        }
    }

    /// What every operation's request carries besides its own fields.
    static func requestInfo(_ reference: UUID, consistencyToken: String?) -> AdvancedCommerceRequestInfo {
        AdvancedCommerceRequestInfo(consistencyToken: consistencyToken, requestReferenceId: LowercaseUUID(reference))
    }

    static func run(
        _ operation: AdvancedCommerceService.Operation, _ call: RPCCall, bundleId: String, transactionId: String, reference: String?,
        _ send: @escaping @Sendable (AppStoreServerAPIClient, String, UUID) async throws(AppStoreServerAPIError) -> (String, String?)
    ) async throws -> Result {
        let reference = reference.flatMap(UUID.init(uuidString:)) ?? UUID()
        let outcome = try await call.capabilities.advancedCommerce.perform(
            operation, tenant: call.caller.tenant, bundleId: bundleId, transactionId: transactionId, requestReferenceId: reference,
            actor: call.caller.actor
        ) { client, id throws(AppStoreServerAPIError) in try await send(client, id, reference) }
        return Result(outcome, reference: reference)
    }

    // MARK: Cancel

    @RPCParams struct CancelParams {
        @Field(.bundleId) let bundleId: String
        /// The subscription's original or any of its transaction IDs.
        @Field(.transactionId) let transactionId: String
        @Field(.uuid) let requestReferenceId: String?
        /// The renewal info's advancedCommerceConsistencyToken, to refuse the call if the subscription changed since.
        @Field(.text(max: 255)) let consistencyToken: String?
        /// ISO 3166-1 alpha-3, as the subscription's storefront.
        @Field(.storefront) let storefront: String?
    }

    static let cancel = RPCMethod<RPCCall>(
        "advancedCommerce.cancel", tag: "advancedCommerce", summary: "Cancels a subscription: it does not renew, and serves until its period ends.",
        description: """
            Apple's Cancel a Subscription (POST /advancedCommerce/v1/subscription/cancel/{transactionId}); audited. Apple then sends \
            DID_CHANGE_RENEWAL_STATUS, which updates the subscription in Storegate.
            """, result: "advancedCommerce", errors: errors
    ) { (p: CancelParams, call) in
        try await run(.cancel, call, bundleId: p.bundleId, transactionId: p.transactionId, reference: p.requestReferenceId) {
            client, id, reference throws(AppStoreServerAPIError) in
            let answer = try await client.cancelSubscription(
                transactionId: id,
                request: AdvancedCommerceSubscriptionCancelRequest(
                    requestInfo: requestInfo(reference, consistencyToken: p.consistencyToken), storefront: p.storefront))
            return (answer.signedTransactionInfo, answer.signedRenewalInfo)
        }
    }

    // MARK: Revoke

    @RPCParams struct RevokeParams {
        @Field(.bundleId) let bundleId: String
        @Field(.transactionId) let transactionId: String
        @Field(.uuid) let requestReferenceId: String?
        @Field(.text(max: 255)) let consistencyToken: String?
        @Field(.storefront) let storefront: String?
        /// Why: UNINTENDED_PURCHASE, FULFILLMENT_ISSUE, UNSATISFIED_WITH_PURCHASE, LEGAL, OTHER, MODIFY_ITEMS_REFUND or (Sandbox only) SIMULATE_REFUND_DECLINE.
        @Field(.refundReason) let refundReason: String
        /// FULL or PRORATED.
        @Field(.revokeRefundType) let refundType: String
        /// true: Apple may ask for consumption information (CONSUMPTION_REQUEST) before it decides.
        let refundRiskingPreference: Bool
    }

    static let revoke = RPCMethod<RPCCall>(
        "advancedCommerce.revoke", tag: "advancedCommerce", summary: "Ends a subscription now, with a full or prorated refund.",
        description: """
            Apple's Revoke Subscription (POST /advancedCommerce/v1/subscription/revoke/{transactionId}); audited. Apple then sends REFUND: \
            keep serving the customer until it arrives (Apple's advice); Storegate records it as it records any refund.
            """, result: "advancedCommerce", errors: errors
    ) { (p: RevokeParams, call) in
        try await run(.revoke, call, bundleId: p.bundleId, transactionId: p.transactionId, reference: p.requestReferenceId) {
            client, id, reference throws(AppStoreServerAPIError) in
            let answer = try await client.revokeSubscription(
                transactionId: id,
                request: AdvancedCommerceSubscriptionRevokeRequest(
                    refundReason: AdvancedCommerceRefundReason(rawValue: p.refundReason), refundRiskingPreference: p.refundRiskingPreference,
                    refundType: AdvancedCommerceRefundType(rawValue: p.refundType), requestInfo: requestInfo(reference, consistencyToken: p.consistencyToken),
                    storefront: p.storefront))
            return (answer.signedTransactionInfo, answer.signedRenewalInfo)
        }
    }

    // MARK: Request Transaction Refund

    @RPCObject(title: "AdvancedCommerceRefundItem") struct RefundItem: Codable {
        /// The item's SKU, as in the transaction.
        @Field(.sku) let SKU: String
        @Field(.refundReason) let refundReason: String
        /// FULL, PRORATED or CUSTOM (with refundAmount).
        @Field(.refundType) let refundType: String
        /// Whether the customer loses the item.
        let revoke: Bool
        /// In milliunits of the currency, tax included outside Canada and the United States; only, and always, with CUSTOM.
        @Field(.minimum(0)) let refundAmount: Int64?
    }

    @RPCParams struct RequestRefundParams {
        @Field(.bundleId) let bundleId: String
        /// The transaction to refund (a one-time charge or a subscription's).
        @Field(.transactionId) let transactionId: String
        @Field(.uuid) let requestReferenceId: String?
        @Field(.text(max: 255)) let consistencyToken: String?
        @Field(.storefront) let storefront: String?
        /// ISO 4217, the transaction's.
        @Field(.currency) let currency: String?
        let items: [RefundItem]
        let refundRiskingPreference: Bool
    }

    static let requestRefund = RPCMethod<RPCCall>(
        "advancedCommerce.requestRefund", tag: "advancedCommerce", summary: "Asks Apple to refund items of a transaction.",
        description: """
            Apple's Request Transaction Refund (POST /advancedCommerce/v1/transaction/requestRefund/{transactionId}); audited. With \
            refundRiskingPreference, Apple may first send CONSUMPTION_REQUEST (answered by the app's refund policy); its decision arrives as \
            REFUND or REFUND_DECLINED. refundAmount goes with CUSTOM and only with it.
            """, result: "advancedCommerce", errors: errors
    ) { (p: RequestRefundParams, call) in
        guard !p.items.isEmpty else { throw StoregateError.invalid(field: "items", reason: "must hold at least one item") }
        for (index, item) in p.items.enumerated() where (item.refundType == AdvancedCommerceRefundType.custom.rawValue) != (item.refundAmount != nil) {
            throw StoregateError.invalid(field: "items[\(index)].refundAmount", reason: "is given with refundType CUSTOM, and only with it")
        }
        let items = p.items.map {
            AdvancedCommerceRequestRefundItem(
                SKU: $0.SKU, refundAmount: $0.refundAmount, refundReason: AdvancedCommerceRefundReason(rawValue: $0.refundReason),
                refundType: AdvancedCommerceRefundType(rawValue: $0.refundType), revoke: $0.revoke)
        }
        return try await run(.requestRefund, call, bundleId: p.bundleId, transactionId: p.transactionId, reference: p.requestReferenceId) {
            client, id, reference throws(AppStoreServerAPIError) in
            let answer = try await client.requestTransactionRefund(
                transactionId: id,
                request: AdvancedCommerceRequestRefundRequest(
                    currency: p.currency, items: items, refundRiskingPreference: p.refundRiskingPreference,
                    requestInfo: requestInfo(reference, consistencyToken: p.consistencyToken), storefront: p.storefront))
            return (answer.signedTransactionInfo, answer.signedRenewalInfo)
        }
    }

    // MARK: Change Subscription Price

    @RPCObject(title: "AdvancedCommercePriceChangeItem") struct PriceChangeItem: Codable {
        @Field(.sku) let SKU: String
        /// The new price, in milliunits of the currency.
        @Field(.minimum(0)) let price: Int64
        /// SKUs Apple cancels if the customer does not consent to the increase.
        @Field(.sku) let dependentSKUs: [String]?
    }

    @RPCParams struct ChangePriceParams {
        @Field(.bundleId) let bundleId: String
        @Field(.transactionId) let transactionId: String
        @Field(.uuid) let requestReferenceId: String?
        @Field(.text(max: 255)) let consistencyToken: String?
        @Field(.storefront) let storefront: String?
        @Field(.currency) let currency: String?
        /// One per SKU whose price changes.
        let items: [PriceChangeItem]
    }

    static let changePrice = RPCMethod<RPCCall>(
        "advancedCommerce.changePrice", tag: "advancedCommerce", summary: "Changes a subscription's price from its next renewal.",
        description: """
            Apple's Change Subscription Price (POST /advancedCommerce/v1/subscription/changePrice/{transactionId}), at least 24 hours before \
            the renewal; audited. Apple then sends PRICE_CHANGE, and PRICE_INCREASE while it asks the customer's consent when needed.
            """, result: "advancedCommerce", errors: errors
    ) { (p: ChangePriceParams, call) in
        guard !p.items.isEmpty else { throw StoregateError.invalid(field: "items", reason: "must hold at least one item") }
        let items = p.items.map { AdvancedCommerceSubscriptionPriceChangeItem(SKU: $0.SKU, price: $0.price, dependentSKUs: $0.dependentSKUs) }
        return try await run(.changePrice, call, bundleId: p.bundleId, transactionId: p.transactionId, reference: p.requestReferenceId) {
            client, id, reference throws(AppStoreServerAPIError) in
            let answer = try await client.changeSubscriptionPrice(
                transactionId: id,
                request: AdvancedCommerceSubscriptionPriceChangeRequest(
                    currency: p.currency, items: items, requestInfo: requestInfo(reference, consistencyToken: p.consistencyToken), storefront: p.storefront))
            return (answer.signedTransactionInfo, answer.signedRenewalInfo)
        }
    }

    // MARK: Change Subscription Metadata

    @RPCObject(title: "AdvancedCommerceMetadataDescriptors") struct MetadataDescriptors: Codable {
        /// Not shown to customers.
        @Field(.text(max: 45)) let description: String?
        /// Shown to customers.
        @Field(.text(max: 30)) let displayName: String?
        /// IMMEDIATELY or NEXT_BILL_CYCLE.
        @Field(.effective) let effective: String
    }

    @RPCObject(title: "AdvancedCommerceMetadataItem") struct MetadataItem: Codable {
        /// The item's SKU now.
        @Field(.sku) let currentSKU: String
        @Field(.effective) let effective: String
        /// Its new SKU.
        @Field(.sku) let SKU: String?
        @Field(.text(max: 45)) let description: String?
        @Field(.text(max: 30)) let displayName: String?
    }

    @RPCParams struct ChangeMetadataParams {
        @Field(.bundleId) let bundleId: String
        @Field(.transactionId) let transactionId: String
        @Field(.uuid) let requestReferenceId: String?
        @Field(.text(max: 255)) let consistencyToken: String?
        @Field(.storefront) let storefront: String?
        let descriptors: MetadataDescriptors?
        let items: [MetadataItem]?
        @Field(.text(max: 64)) let taxCode: String?
    }

    static let changeMetadata = RPCMethod<RPCCall>(
        "advancedCommerce.changeMetadata", tag: "advancedCommerce", summary: "Renames a subscription or its items, without changing its billing.",
        description: """
            Apple's Change Subscription Metadata (POST /advancedCommerce/v1/subscription/changeMetadata/{transactionId}); audited. At least \
            descriptors or one item. Apple then sends METADATA_UPDATE.
            """, result: "advancedCommerce", errors: errors
    ) { (p: ChangeMetadataParams, call) in
        guard p.descriptors != nil || !(p.items ?? []).isEmpty else {
            throw StoregateError.invalid(field: "items", reason: "or descriptors must say what changes")
        }
        let descriptors = p.descriptors.map {
            AdvancedCommerceSubscriptionChangeMetadataDescriptors(
                description: $0.description, displayName: $0.displayName, effective: AdvancedCommerceEffective(rawValue: $0.effective))
        }
        let items = p.items?.map {
            AdvancedCommerceSubscriptionChangeMetadataItem(
                currentSKU: $0.currentSKU, description: $0.description, displayName: $0.displayName,
                effective: AdvancedCommerceEffective(rawValue: $0.effective),
                SKU: $0.SKU)
        }
        return try await run(.changeMetadata, call, bundleId: p.bundleId, transactionId: p.transactionId, reference: p.requestReferenceId) {
            client, id, reference throws(AppStoreServerAPIError) in
            let answer = try await client.changeSubscriptionMetadata(
                transactionId: id,
                request: AdvancedCommerceSubscriptionChangeMetadataRequest(
                    descriptors: descriptors, items: items, requestInfo: requestInfo(reference, consistencyToken: p.consistencyToken), storefront: p.storefront,
                    taxCode: p.taxCode))
            return (answer.signedTransactionInfo, answer.signedRenewalInfo)
        }
    }

    // MARK: Migrate

    @RPCObject(title: "AdvancedCommerceMigrateItem") struct MigrateItem: Codable {
        @Field(.sku) let SKU: String
        @Field(.text(max: 45)) let description: String
        @Field(.text(max: 30)) let displayName: String
    }

    @RPCObject(title: "AdvancedCommerceMigrateDescriptors") struct MigrateDescriptors: Codable {
        @Field(.text(max: 45)) let description: String
        @Field(.text(max: 30)) let displayName: String
    }

    @RPCParams struct MigrateParams {
        @Field(.bundleId) let bundleId: String
        /// The In-App Purchase subscription's original or any of its transaction IDs.
        @Field(.transactionId) let transactionId: String
        @Field(.uuid) let requestReferenceId: String?
        @Field(.text(max: 255)) let consistencyToken: String?
        @Field(.storefront) let storefront: String?
        let descriptors: MigrateDescriptors
        let items: [MigrateItem]
        /// Items of a downgrade or crossgrade pending at the next renewal.
        let renewalItems: [MigrateItem]?
        /// Your generic Advanced Commerce product ID in App Store Connect.
        @Field(.storeIdentifier) let targetProductId: String
        @Field(.text(max: 64)) let taxCode: String
    }

    static let migrate = RPCMethod<RPCCall>(
        "advancedCommerce.migrate", tag: "advancedCommerce", summary: "Moves an In-App Purchase subscription to the Advanced Commerce API.",
        description: """
            Apple's Migrate a Subscription to Advanced Commerce API (POST /advancedCommerce/v1/subscription/migrate/{transactionId}); \
            audited. Apple then sends MIGRATION.
            """, result: "advancedCommerce", errors: errors
    ) { (p: MigrateParams, call) in
        guard !p.items.isEmpty else { throw StoregateError.invalid(field: "items", reason: "must hold at least one item") }
        let items = p.items.map { AdvancedCommerceSubscriptionMigrateItem(description: $0.description, displayName: $0.displayName, SKU: $0.SKU) }
        let renewalItems = p.renewalItems?.map {
            AdvancedCommerceSubscriptionMigrateRenewalItem(description: $0.description, displayName: $0.displayName, SKU: $0.SKU)
        }
        let descriptors = AdvancedCommerceSubscriptionMigrateDescriptors(description: p.descriptors.description, displayName: p.descriptors.displayName)
        return try await run(.migrate, call, bundleId: p.bundleId, transactionId: p.transactionId, reference: p.requestReferenceId) {
            client, id, reference throws(AppStoreServerAPIError) in
            let answer = try await client.migrateSubscription(
                transactionId: id,
                request: AdvancedCommerceSubscriptionMigrateRequest(
                    descriptors: descriptors, items: items, renewalItems: renewalItems,
                    requestInfo: requestInfo(reference, consistencyToken: p.consistencyToken), storefront: p.storefront, targetProductId: p.targetProductId,
                    taxCode: p.taxCode))
            return (answer.signedTransactionInfo, answer.signedRenewalInfo)
        }
    }
}

extension Rule {
    /// A SKU of the Advanced Commerce API: 1 to 128 printable ASCII characters.
    static let sku = Rule.characters("!-~", count: 1...128)
    /// ISO 3166-1 alpha-3, as Apple names storefronts: USA.
    static let storefront = Rule.characters("A-Z", count: 3...3)
    /// ISO 4217: USD.
    static let currency = Rule.characters("A-Z", count: 3...3)
    static let refundReason = Rule.oneOf(AdvancedCommerceRefundReason.known.map(\.rawValue))
    static let refundType = Rule.oneOf(AdvancedCommerceRefundType.known.map(\.rawValue))
    static let revokeRefundType = Rule.oneOf([AdvancedCommerceRefundType.full.rawValue, AdvancedCommerceRefundType.prorated.rawValue])
    static let effective = Rule.oneOf(AdvancedCommerceEffective.known.map(\.rawValue))
}
