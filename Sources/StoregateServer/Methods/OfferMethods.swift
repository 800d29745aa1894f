import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `offers.*`: signatures for StoreKit, made with the app's In-App Purchase key.
enum OfferMethods {
    static let all = [signPromotional, signPromotionalJWS, signIntroductoryEligibility, signAdvancedCommerceRequest]

    static let errors = [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.keyUnavailable]

    @RPCObject struct CompactJWS: JSONValueConvertible {
        /// A compact JWS (header.payload.signature).
        let compactJWS: String
    }

    /// The legacy signature's fields, written without `JSONEncoder`.
    @RPCObject(title: "PromotionalOfferSignature") struct PromotionalOfferView: JSONValueConvertible {
        /// The key ID of the signing key.
        let keyIdentifier: String
        /// A lowercase UUID.
        @Field(.uuid) let nonce: String
        /// UNIX time in milliseconds.
        let timestamp: Int64
        /// ECDSA P-256 signature, DER, standard base64.
        let signature: String

        init(_ signature: PromotionalOfferSignature) {
            keyIdentifier = signature.keyIdentifier
            nonce = signature.nonce
            timestamp = signature.timestamp
            self.signature = signature.signature
        }
    }

    @RPCParams struct PromotionalParams {
        @Field(.bundleId) let bundleId: String
        /// Which of the app's keys to sign with (default: the newest).
        @Field(.keyId) let keyId: String?
        /// The product identifier from App Store Connect.
        @Field(.storeIdentifier) let productId: String
        /// The promotional offer identifier.
        @Field(.storeIdentifier) let offerId: String
        /// The customer's appAccountToken (a UUID), if the purchase carries one.
        let appAccountToken: UUID?
    }

    static let signPromotional = RPCMethod<RPCCall>(
        "offers.signPromotional", tag: "offers", summary: "Signs a promotional offer (legacy signature format).",
        description: """
            Returns what StoreKit needs to apply a promotional offer. StoreKit 2: \
            `Product.PurchaseOption.promotionalOffer(offerID: offerId, keyID: keyIdentifier, nonce: UUID(uuidString: nonce)!, \
            signature: Data(base64Encoded: signature)!, timestamp: timestamp)`. StoreKit 1: \
            `SKPaymentDiscount(identifier: offerId, keyIdentifier: keyIdentifier, nonce: UUID(uuidString: nonce)!, \
            signature: signature, timestamp: NSNumber(value: timestamp))`. Pass the same `appAccountToken` to the purchase.
            """, result: "promotionalOfferSignature", errors: errors
    ) { (params: PromotionalParams, call) in
        PromotionalOfferView(
            try await call.capabilities.offers.signPromotional(
                tenant: call.caller.tenant, bundleId: params.bundleId, keyId: params.keyId, productId: params.productId, offerId: params.offerId,
                appAccountToken: params.appAccountToken, actor: call.caller.actor))
    }

    @RPCParams struct PromotionalJWSParams {
        @Field(.bundleId) let bundleId: String
        /// Which of the app's keys to sign with (default: the newest).
        @Field(.keyId) let keyId: String?
        /// The product identifier from App Store Connect.
        @Field(.storeIdentifier) let productId: String
        /// The promotional offer identifier.
        @Field(.storeIdentifier) let offerId: String
        /// Any of the customer's transaction IDs; the appTransactionId is recommended.
        @Field(.transactionId) let transactionId: String?
    }

    static let signPromotionalJWS = RPCMethod<RPCCall>(
        "offers.signPromotionalJWS", tag: "offers", summary: "Signs a promotional offer as a JWS.",
        description: "StoreKit: `Product.PurchaseOption.promotionalOffer(offerId, compactJWS: compactJWS)`.", result: "promotionalOfferJWS", errors: errors
    ) { (params: PromotionalJWSParams, call) in
        CompactJWS(
            compactJWS: try await call.capabilities.offers.signPromotionalJWS(
                tenant: call.caller.tenant, bundleId: params.bundleId, keyId: params.keyId, productId: params.productId, offerId: params.offerId,
                transactionId: params.transactionId, actor: call.caller.actor))
    }

    @RPCParams struct IntroductoryParams {
        @Field(.bundleId) let bundleId: String
        /// Which of the app's keys to sign with (default: the newest).
        @Field(.keyId) let keyId: String?
        /// The product identifier from App Store Connect.
        @Field(.storeIdentifier) let productId: String
        /// Whether the customer may redeem the introductory offer.
        let allowIntroductoryOffer: Bool
        /// Any of the customer's transaction IDs.
        @Field(.transactionId) let transactionId: String
    }

    static let signIntroductoryEligibility = RPCMethod<RPCCall>(
        "offers.signIntroductoryEligibility", tag: "offers", summary: "Signs an introductory-offer eligibility decision as a JWS.",
        description: "StoreKit: `Product.PurchaseOption.introductoryOfferEligibility(compactJWS: compactJWS)`.", result: "introductoryOfferEligibilityJWS",
        errors: errors
    ) { (params: IntroductoryParams, call) in
        CompactJWS(
            compactJWS: try await call.capabilities.offers.signIntroductoryEligibility(
                tenant: call.caller.tenant, bundleId: params.bundleId, keyId: params.keyId, productId: params.productId,
                allowIntroductoryOffer: params.allowIntroductoryOffer, transactionId: params.transactionId, actor: call.caller.actor))
    }

    @RPCParams struct AdvancedCommerceParams {
        @Field(.bundleId) let bundleId: String
        /// Which of the app's keys to sign with (default: the newest).
        @Field(.keyId) let keyId: String?
        /// The Advanced Commerce in-app request.
        @Field(.object(requiring: ["operation", "version"])) let request: JSONValue
    }

    static let signAdvancedCommerceRequest = RPCMethod<RPCCall>(
        "offers.signAdvancedCommerceRequest", tag: "offers", summary: "Signs an Advanced Commerce in-app request as a JWS.",
        description: """
            `request` is the in-app request object (for example `{"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":{…},…}`); \
            its JSON is carried base64-encoded in the `request` claim. The app passes `compactJWS` to the Advanced Commerce purchase.
            """, result: "advancedCommerceRequestJWS", errors: errors
    ) { (params: AdvancedCommerceParams, call) in
        guard case .string(let operation) = params.request["operation"], !operation.isEmpty else {
            throw StoregateError.invalid(field: "request.operation", reason: "is required")
        }
        return CompactJWS(
            compactJWS: try await call.capabilities.offers.signAdvancedCommerceRequest(
                tenant: call.caller.tenant, bundleId: params.bundleId, keyId: params.keyId, requestJSON: Data(params.request.serialized),
                operation: operation, actor: call.caller.actor))
    }
}
