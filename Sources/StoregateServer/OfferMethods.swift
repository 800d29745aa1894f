import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `offers.*`: signatures for StoreKit, made with the app's In-App Purchase key.
enum OfferMethods {
    static let all = [signPromotional, signPromotionalJWS, signIntroductoryEligibility, signAdvancedCommerceRequest]

    static let errors = [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.keyUnavailable]
    static let bundleId = RPCParam("bundleId", "The app's bundle ID, within the caller's tenant.", schema: AppView.bundleIdSchema)
    static let keyId = RPCParam(
        "keyId", "Which of the app's keys to sign with (default: the newest).", schema: Schema.string(pattern: "^[A-Z0-9]{10}$"), required: false)
    static let productId = RPCParam("productId", "The product identifier from App Store Connect.", schema: Schema.string(maxLength: 255))
    static let compactJWS = Schema.object([("compactJWS", Schema.string("A compact JWS (header.payload.signature)."))], required: ["compactJWS"])

    struct CompactJWS: JSONValueConvertible {
        let compactJWS: String
        var jsonValue: JSONValue { ["compactJWS": .string(compactJWS)] }

        static let schema: JSONValue = OfferMethods.compactJWS
    }

    /// The legacy signature's fields, written without `JSONEncoder` (members in the encoder's sorted order).
    struct PromotionalOfferView: JSONValueConvertible {
        let signature: PromotionalOfferSignature
        func encode(to encoder: any Encoder) throws { try signature.encode(to: encoder) }
        var jsonValue: JSONValue {
            [
                "keyIdentifier": .string(signature.keyIdentifier), "nonce": .string(signature.nonce), "signature": .string(signature.signature),
                "timestamp": .number(String(signature.timestamp)),
            ]
        }

        static let schema: JSONValue = Schema.object(
            [
                ("keyIdentifier", Schema.string("The key ID of the signing key.")), ("nonce", Schema.string("A lowercase UUID.", format: "uuid")),
                ("timestamp", Schema.integer("UNIX time in milliseconds.")), ("signature", Schema.string("ECDSA P-256 signature, DER, standard base64.")),
            ], required: ["keyIdentifier", "nonce", "timestamp", "signature"], title: "PromotionalOfferSignature")
    }

    struct PromotionalParams: RPCParams {
        let bundleId: String
        let keyId: String?
        let productId: String
        let offerId: String
        let appAccountToken: UUID?

        static let parameters: [RPCParam] = [
            OfferMethods.bundleId, OfferMethods.keyId, OfferMethods.productId,
            RPCParam("offerId", "The promotional offer identifier.", schema: Schema.string(maxLength: 255)),
            RPCParam(
                "appAccountToken", "The customer's appAccountToken (a UUID), if the purchase carries one.", schema: Schema.string(format: "uuid"),
                required: false),
        ]
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
            signature: try await call.services.offers.signPromotional(
                tenant: call.caller.tenant, bundleId: params.bundleId, keyId: params.keyId, productId: params.productId, offerId: params.offerId,
                appAccountToken: params.appAccountToken, actor: call.caller.actor))
    }

    struct PromotionalJWSParams: RPCParams {
        let bundleId: String
        let keyId: String?
        let productId: String
        let offerId: String
        let transactionId: String?

        static let parameters: [RPCParam] = [
            OfferMethods.bundleId, OfferMethods.keyId, OfferMethods.productId,
            RPCParam("offerId", "The promotional offer identifier.", schema: Schema.string(maxLength: 255)),
            RPCParam(
                "transactionId", "Any of the customer's transaction IDs; the appTransactionId is recommended.", schema: Schema.string(pattern: "^[0-9]{1,32}$"),
                required: false),
        ]
    }

    static let signPromotionalJWS = RPCMethod<RPCCall>(
        "offers.signPromotionalJWS", tag: "offers", summary: "Signs a promotional offer as a JWS.",
        description: "StoreKit: `Product.PurchaseOption.promotionalOffer(offerId, compactJWS: compactJWS)`.", result: "promotionalOfferJWS", errors: errors
    ) { (params: PromotionalJWSParams, call) in
        CompactJWS(
            compactJWS: try await call.services.offers.signPromotionalJWS(
                tenant: call.caller.tenant, bundleId: params.bundleId, keyId: params.keyId, productId: params.productId, offerId: params.offerId,
                transactionId: params.transactionId, actor: call.caller.actor))
    }

    struct IntroductoryParams: RPCParams {
        let bundleId: String
        let keyId: String?
        let productId: String
        let allowIntroductoryOffer: Bool
        let transactionId: String

        static let parameters: [RPCParam] = [
            OfferMethods.bundleId, OfferMethods.keyId, OfferMethods.productId,
            RPCParam("allowIntroductoryOffer", "Whether the customer may redeem the introductory offer.", schema: ["type": "boolean"]),
            RPCParam("transactionId", "Any of the customer's transaction IDs.", schema: Schema.string(pattern: "^[0-9]{1,32}$")),
        ]
    }

    static let signIntroductoryEligibility = RPCMethod<RPCCall>(
        "offers.signIntroductoryEligibility", tag: "offers", summary: "Signs an introductory-offer eligibility decision as a JWS.",
        description: "StoreKit: `Product.PurchaseOption.introductoryOfferEligibility(compactJWS: compactJWS)`.", result: "introductoryOfferEligibilityJWS",
        errors: errors
    ) { (params: IntroductoryParams, call) in
        CompactJWS(
            compactJWS: try await call.services.offers.signIntroductoryEligibility(
                tenant: call.caller.tenant, bundleId: params.bundleId, keyId: params.keyId, productId: params.productId,
                allowIntroductoryOffer: params.allowIntroductoryOffer, transactionId: params.transactionId, actor: call.caller.actor))
    }

    struct AdvancedCommerceParams: RPCParams {
        let bundleId: String
        let keyId: String?
        let request: JSONValue

        static let parameters: [RPCParam] = [
            OfferMethods.bundleId, OfferMethods.keyId,
            RPCParam(
                "request", "The Advanced Commerce in-app request.",
                schema: Schema.object([("operation", Schema.string()), ("version", Schema.string())], required: ["operation", "version"]).allowingMore),
        ]
    }

    static let signAdvancedCommerceRequest = RPCMethod<RPCCall>(
        "offers.signAdvancedCommerceRequest", tag: "offers", summary: "Signs an Advanced Commerce in-app request as a JWS.",
        description: """
            `request` is the in-app request object (for example `{"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":{…},…}`); \
            its JSON is carried base64-encoded in the `request` claim. The app passes `compactJWS` to the Advanced Commerce purchase.
            """, result: "advancedCommerceRequestJWS", errors: errors
    ) { (params: AdvancedCommerceParams, call) in
        guard case .object = params.request else { throw StoregateError.invalid(field: "request", reason: "must be an object") }
        guard case .string(let operation) = params.request["operation"], !operation.isEmpty else {
            throw StoregateError.invalid(field: "request.operation", reason: "is required")
        }
        guard case .string = params.request["version"] else { throw StoregateError.invalid(field: "request.version", reason: "is required") }
        return CompactJWS(
            compactJWS: try await call.services.offers.signAdvancedCommerceRequest(
                tenant: call.caller.tenant, bundleId: params.bundleId, keyId: params.keyId, requestJSON: Data(params.request.serialized),
                operation: operation, actor: call.caller.actor))
    }
}

extension JSONValue {
    /// An object schema that admits members beyond the listed ones.
    var allowingMore: JSONValue {
        guard case .object(let members) = self else { return self }
        return .object(members.map { $0.key == "additionalProperties" ? (key: $0.key, value: .bool(true)) : $0 })
    }
}
