import AppStoreServer
import Crypto
import Foundation
import Synchronization
import TestVectors
import Testing

@Suite struct OfferSigningTests {
    static func key(bundleId: String = "com.example.app") throws -> SigningKey {
        try SigningKey(
            keyId: "ABCDEF1234", issuerId: "57246542-96FE-1A63-E053-0824D011072A", bundleId: bundleId, p8: AppleVectors.text("certs/testSigningKey.p8"))
    }

    static let fixedNow = Date(timeIntervalSince1970: 1_698_148_900)
    static let nonce = UUID(uuidString: "20FBA8A0-2B80-4A7D-A17F-85C1854727F8")!

    /// The payload bytes equal the reference example; the signature is DER and verifies with the public key.
    @Test func legacyPromotionalOfferMatchesTheReference() throws {
        let payload = OfferSigner.legacyPayload(
            bundleId: "com.example.app", keyId: "ABCDEF1234", productId: "com.example.sub.monthly", offerId: "WINBACK_50",
            appAccountToken: "7389A31A-FB6D-4569-A2A6-DB7D85D84813", nonce: Self.nonce, timestamp: 1_698_148_900_000)
        let expected =
            "com.example.app\u{2063}ABCDEF1234\u{2063}com.example.sub.monthly\u{2063}WINBACK_50\u{2063}7389a31a-fb6d-4569-a2a6-db7d85d84813\u{2063}20fba8a0-2b80-4a7d-a17f-85c1854727f8\u{2063}1698148900000"
        #expect(Array(payload.utf8) == Array(expected.utf8))
        #expect(payload.utf8.filter { $0 == 0xE2 }.count == 6, "six U+2063 separators, e2 81 a3")

        let key = try Self.key()
        let signer = OfferSigner(key: key, now: { Self.fixedNow }, makeNonce: { Self.nonce })
        let signed = try signer.promotionalOffer(
            productId: "com.example.sub.monthly", offerId: "WINBACK_50", appAccountToken: UUID(uuidString: "7389A31A-FB6D-4569-A2A6-DB7D85D84813"))
        #expect(signed.keyIdentifier == "ABCDEF1234")
        #expect(signed.nonce == "20fba8a0-2b80-4a7d-a17f-85c1854727f8")
        #expect(signed.timestamp == 1_698_148_900_000)
        let der = try #require(Data(base64Encoded: signed.signature))
        let signature = try P256.Signing.ECDSASignature(derRepresentation: der)
        #expect(key.publicKey.isValidSignature(signature, for: Data(expected.utf8)))
        #expect(!key.publicKey.isValidSignature(signature, for: Data(expected.replacingOccurrences(of: "WINBACK_50", with: "WINBACK_51").utf8)))

        let withoutToken = try signer.promotionalOffer(productId: "p", offerId: "o", appAccountToken: nil)
        let emptyTokenPayload = "com.example.app\u{2063}ABCDEF1234\u{2063}p\u{2063}o\u{2063}\u{2063}20fba8a0-2b80-4a7d-a17f-85c1854727f8\u{2063}1698148900000"
        #expect(
            key.publicKey.isValidSignature(
                try P256.Signing.ECDSASignature(derRepresentation: Data(base64Encoded: withoutToken.signature)!), for: Data(emptyTokenPayload.utf8)))
    }

    /// Decodes a compact JWS, checks its signature with `publicKey`, and returns header and claims.
    static func open(_ jws: String, publicKey: P256.Signing.PublicKey) throws -> (header: [String: Any], claims: [String: Any]) {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
        #expect(publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)), "the signature verifies")
        let header = try JSONSerialization.jsonObject(with: try #require(Base64URL.decode(parts[0]))) as? [String: Any] ?? [:]
        let claims = try JSONSerialization.jsonObject(with: try #require(Base64URL.decode(parts[1]))) as? [String: Any] ?? [:]
        return (header, claims)
    }

    static func checkHeader(_ header: [String: Any]) {
        #expect(Set(header.keys) == ["alg", "kid", "typ"])
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == "ABCDEF1234")
        #expect(header["typ"] as? String == "JWT")
    }

    static func checkCommon(_ claims: [String: Any], audience: String) {
        #expect(claims["aud"] as? String == audience)
        #expect(claims["iss"] as? String == "57246542-96fe-1a63-e053-0824d011072a")
        #expect(claims["bid"] as? String == "com.example.app")
        #expect((claims["iat"] as? NSNumber)?.stringValue == "1698148900", "integer seconds")
        #expect(claims["nonce"] as? String == "20fba8a0-2b80-4a7d-a17f-85c1854727f8")
        #expect(claims["exp"] == nil)
    }

    @Test func jwsOffersHaveExactlyTheListedHeaderAndClaims() throws {
        let key = try Self.key()
        let signer = OfferSigner(key: key, now: { Self.fixedNow }, makeNonce: { Self.nonce })

        let promotional = try Self.open(
            signer.promotionalOfferJWS(productId: "com.example.sub.monthly", offerIdentifier: "WINBACK_50", transactionId: "2000000847061981"),
            publicKey: key.publicKey)
        Self.checkHeader(promotional.header)
        Self.checkCommon(promotional.claims, audience: "promotional-offer")
        #expect(Set(promotional.claims.keys) == ["productId", "offerIdentifier", "transactionId", "iss", "bid", "aud", "iat", "nonce"])
        #expect(promotional.claims["transactionId"] as? String == "2000000847061981")

        let withoutTransaction = try Self.open(signer.promotionalOfferJWS(productId: "p", offerIdentifier: "o", transactionId: nil), publicKey: key.publicKey)
        #expect(Set(withoutTransaction.claims.keys) == ["productId", "offerIdentifier", "iss", "bid", "aud", "iat", "nonce"])

        let intro = try Self.open(
            signer.introductoryOfferEligibilityJWS(productId: "com.example.sub.monthly", allowIntroductoryOffer: false, transactionId: "2000000847061981"),
            publicKey: key.publicKey)
        Self.checkHeader(intro.header)
        Self.checkCommon(intro.claims, audience: "introductory-offer-eligibility")
        #expect(Set(intro.claims.keys) == ["productId", "allowIntroductoryOffer", "transactionId", "iss", "bid", "aud", "iat", "nonce"])
        #expect(intro.claims["allowIntroductoryOffer"] as? Bool == false)

        let request = Data(
            #"{"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":{"requestReferenceId":"fdf964a4-233b-486c-aac1-97d8d52688ac"}}"#.utf8)
        let commerce = try Self.open(signer.advancedCommerceRequestJWS(requestJSON: request), publicKey: key.publicKey)
        Self.checkHeader(commerce.header)
        Self.checkCommon(commerce.claims, audience: "advanced-commerce-api")
        #expect(Set(commerce.claims.keys) == ["request", "iss", "bid", "aud", "iat", "nonce"])
        #expect(Data(base64Encoded: commerce.claims["request"] as? String ?? "") == request, "standard base64 of the request JSON")
    }

    /// The claims are written without JSONEncoder on the hot path: the same members (nil ones left out) and
    /// values, escapes included, in declaration order (Linux's JSONEncoder has no fixed order).
    @Test func claimsAreWhatJSONEncoderWouldWrite() throws {
        let key = try Self.key()
        let signer = OfferSigner(
            key: key, now: { Date(timeIntervalSince1970: 1_700_000_000) }, makeNonce: { UUID(uuidString: "A1B2C3D4-0000-4000-8000-000000000001")! })
        let nonce = "a1b2c3d4-0000-4000-8000-000000000001"
        func payload(_ jws: String) throws -> Data { try #require(Base64URL.decode(jws.split(separator: ".")[1])) }
        func same<T: Codable & Equatable>(_ written: Data, _ expected: T) throws {
            #expect(try JSONDecoder().decode(T.self, from: written) == expected)
            let members = try #require(try JSONSerialization.jsonObject(with: written) as? NSDictionary)
            #expect(members == (try JSONSerialization.jsonObject(with: try JSONEncoder().encode(expected)) as? NSDictionary))
        }
        for text in ["com.example.monthly", #"quote" back\slash /slash"#, "tab\tnew\nline\u{1}\u{1f}\u{7f}", "emoji 🎉 é ü", ""] {
            try same(
                try payload(try signer.promotionalOfferJWS(productId: text, offerIdentifier: text, transactionId: nil)),
                PromotionalOfferClaims(
                    productId: text, offerIdentifier: text, transactionId: nil, iss: key.issuerId, bid: key.bundleId, aud: "promotional-offer",
                    iat: 1_700_000_000,
                    nonce: nonce))
            try same(
                try payload(try signer.promotionalOfferJWS(productId: text, offerIdentifier: "o", transactionId: "2000000000000001")),
                PromotionalOfferClaims(
                    productId: text, offerIdentifier: "o", transactionId: "2000000000000001", iss: key.issuerId, bid: key.bundleId, aud: "promotional-offer",
                    iat: 1_700_000_000, nonce: nonce))
            try same(
                try payload(try signer.introductoryOfferEligibilityJWS(productId: text, allowIntroductoryOffer: false, transactionId: text)),
                IntroductoryOfferEligibilityClaims(
                    productId: text, allowIntroductoryOffer: false, transactionId: text, iss: key.issuerId, bid: key.bundleId,
                    aud: "introductory-offer-eligibility", iat: 1_700_000_000, nonce: nonce))
            try same(
                try payload(try signer.advancedCommerceRequestJWS(requestJSON: Data(text.utf8))),
                AdvancedCommerceRequestClaims(
                    request: Data(text.utf8).base64EncodedString(), iss: key.issuerId, bid: key.bundleId, aud: "advanced-commerce-api", iat: 1_700_000_000,
                    nonce: nonce))
        }
    }

    @Test func bearerTokenIsCachedAndRenewedBeforeExpiry() throws {
        let key = try Self.key()
        let clock = TestClock(Self.fixedNow)
        let tokens = AppStoreServerAPIToken(key: key, lifetime: 600, refreshMargin: 120, now: { clock.now })
        let first = try tokens.current()
        let opened = try Self.open(first, publicKey: key.publicKey)
        Self.checkHeader(opened.header)
        #expect(Set(opened.claims.keys) == ["iss", "iat", "exp", "aud", "bid"])
        #expect(opened.claims["aud"] as? String == "appstoreconnect-v1")
        #expect((opened.claims["iat"] as? NSNumber)?.stringValue == "1698148900")
        #expect((opened.claims["exp"] as? NSNumber)?.stringValue == "1698149500")
        clock.advance(by: 470)
        #expect(try tokens.current() == first, "reused while more than two minutes remain")
        clock.advance(by: 20)
        let renewed = try tokens.current()
        #expect(renewed != first)
        #expect((try Self.open(renewed, publicKey: key.publicKey).claims["exp"] as? NSNumber)?.int64Value == 1_698_148_900 + 490 + 600)
    }
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
