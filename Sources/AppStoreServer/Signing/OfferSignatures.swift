import Foundation

/// What StoreKit needs for a promotional offer in the legacy format
/// (`Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`).
public struct PromotionalOfferSignature: Codable, Equatable, Sendable {
    public let keyIdentifier: String
    /// Lowercase UUID.
    public let nonce: String
    /// UNIX time in milliseconds.
    public let timestamp: Int64
    /// ASN.1 DER ECDSA signature, standard base64.
    public let signature: String

    public init(keyIdentifier: String, nonce: String, timestamp: Int64, signature: String) {
        (self.keyIdentifier, self.nonce, self.timestamp, self.signature) = (keyIdentifier, nonce, timestamp, signature)
    }
}

/// The claims of the three JWS offer formats. Common: `iss`, `bid`, `aud`, integer `iat`, a fresh
/// lowercase `nonce`; no `exp`.
public struct PromotionalOfferClaims: Codable, Equatable, Sendable {
    public let productId: String
    public let offerIdentifier: String
    public let transactionId: String?
    public let iss: String
    public let bid: String
    public let aud: String
    public let iat: Int64
    public let nonce: String
    public static let audience = "promotional-offer"

    public init(productId: String, offerIdentifier: String, transactionId: String?, iss: String, bid: String, aud: String, iat: Int64, nonce: String) {
        (self.productId, self.offerIdentifier, self.transactionId, self.iss, self.bid, self.aud, self.iat, self.nonce) =
            (productId, offerIdentifier, transactionId, iss, bid, aud, iat, nonce)
    }
}

public struct IntroductoryOfferEligibilityClaims: Codable, Equatable, Sendable {
    public let productId: String
    public let allowIntroductoryOffer: Bool
    public let transactionId: String
    public let iss: String
    public let bid: String
    public let aud: String
    public let iat: Int64
    public let nonce: String
    public static let audience = "introductory-offer-eligibility"

    public init(productId: String, allowIntroductoryOffer: Bool, transactionId: String, iss: String, bid: String, aud: String, iat: Int64, nonce: String) {
        (self.productId, self.allowIntroductoryOffer, self.transactionId, self.iss, self.bid, self.aud, self.iat, self.nonce) =
            (productId, allowIntroductoryOffer, transactionId, iss, bid, aud, iat, nonce)
    }
}

public struct AdvancedCommerceRequestClaims: Codable, Equatable, Sendable {
    /// Standard base64 (with padding) of the request's JSON.
    public let request: String
    public let iss: String
    public let bid: String
    public let aud: String
    public let iat: Int64
    public let nonce: String
    public static let audience = "advanced-commerce-api"

    public init(request: String, iss: String, bid: String, aud: String, iat: Int64, nonce: String) {
        (self.request, self.iss, self.bid, self.aud, self.iat, self.nonce) = (request, iss, bid, aud, iat, nonce)
    }
}

/// Signs offers with an app's key. Clock and nonces are injectable for tests.
public struct OfferSigner: Sendable {
    public let key: SigningKey
    let now: @Sendable () -> Date
    let makeNonce: @Sendable () -> UUID

    public init(key: SigningKey, now: @escaping @Sendable () -> Date = Date.init, makeNonce: @escaping @Sendable () -> UUID = UUID.random) {
        self.key = key
        self.now = now
        self.makeNonce = makeNonce
    }

    /// The legacy payload: seven fields joined by U+2063; only `appAccountToken` and the nonce lowercased.
    public static func legacyPayload(
        bundleId: String, keyId: String, productId: String, offerId: String, appAccountToken: String, nonce: UUID, timestamp: Int64
    ) -> String {
        [bundleId, keyId, productId, offerId, appAccountToken.lowercased(), nonce.lowercasedString, String(timestamp)].joined(separator: "\u{2063}")
    }

    /// A legacy promotional offer signature. `appAccountToken` may be empty.
    public func promotionalOffer(productId: String, offerId: String, appAccountToken: UUID?) throws -> PromotionalOfferSignature {
        let nonce = makeNonce()
        let timestamp = Int64((now().timeIntervalSince1970 * 1000).rounded(.down))
        let payload = Self.legacyPayload(
            bundleId: key.bundleId, keyId: key.keyId, productId: productId, offerId: offerId, appAccountToken: appAccountToken?.lowercasedString ?? "",
            nonce: nonce, timestamp: timestamp)
        let signature = try key.derSignature(of: Data(payload.utf8))
        return PromotionalOfferSignature(
            keyIdentifier: key.keyId, nonce: nonce.lowercasedString, timestamp: timestamp, signature: signature.base64EncodedString())
    }

    /// A promotional offer JWS (`Product.PurchaseOption.promotionalOffer(_:compactJWS:)`).
    public func promotionalOfferJWS(productId: String, offerIdentifier: String, transactionId: String?) throws -> String {
        try key.jws(
            claims: PromotionalOfferClaims(
                productId: productId, offerIdentifier: offerIdentifier, transactionId: transactionId, iss: key.issuerId, bid: key.bundleId,
                aud: PromotionalOfferClaims.audience, iat: issuedAt(), nonce: nonce()))
    }

    /// An introductory offer eligibility JWS (`Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`).
    public func introductoryOfferEligibilityJWS(productId: String, allowIntroductoryOffer: Bool, transactionId: String) throws -> String {
        try key.jws(
            claims: IntroductoryOfferEligibilityClaims(
                productId: productId, allowIntroductoryOffer: allowIntroductoryOffer, transactionId: transactionId, iss: key.issuerId, bid: key.bundleId,
                aud: IntroductoryOfferEligibilityClaims.audience, iat: issuedAt(), nonce: nonce()))
    }

    /// An Advanced Commerce in-app request JWS; `requestJSON` is the request object's JSON.
    public func advancedCommerceRequestJWS(requestJSON: Data) throws -> String {
        try key.jws(
            claims: AdvancedCommerceRequestClaims(
                request: requestJSON.base64EncodedString(), iss: key.issuerId, bid: key.bundleId, aud: AdvancedCommerceRequestClaims.audience,
                iat: issuedAt(), nonce: nonce()))
    }

    private func issuedAt() -> Int64 { Int64(now().timeIntervalSince1970) }
    private func nonce() -> String { makeNonce().lowercasedString }
}
