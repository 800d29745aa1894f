import Crypto
import Foundation

/// An App Store Connect In-App Purchase key, parsed once and reused for every signature it makes.
public struct SigningKey: Sendable {
    public let keyId: String
    public let issuerId: String
    public let bundleId: String
    let privateKey: P256.Signing.PrivateKey
    /// The encoded header, `{"alg":"ES256","kid":…,"typ":"JWT"}`, made once.
    private let headerSegment: [UInt8]

    public init(keyId: String, issuerId: String, bundleId: String, privateKey: P256.Signing.PrivateKey) {
        self.keyId = keyId
        self.issuerId = issuerId.lowercased()
        self.bundleId = bundleId
        self.privateKey = privateKey
        var header: [UInt8] = []
        Base64URL.append(JWSHeader(kid: keyId).compactJSON, to: &header)
        self.headerSegment = header
    }

    /// Parses a `.p8` (PEM PKCS#8 P-256).
    public init(keyId: String, issuerId: String, bundleId: String, p8 pem: String) throws(PrivateKeyPEM.Failure) {
        self.init(keyId: keyId, issuerId: issuerId, bundleId: bundleId, privateKey: try PrivateKeyPEM.parse(pem))
    }

    public var publicKey: P256.Signing.PublicKey { privateKey.publicKey }

    /// A compact JWS with header `{"alg":"ES256","kid":…,"typ":"JWT"}` over `claims`, signature raw r‖s.
    /// The offer claims take a fast path past `JSONEncoder` (`CompactJSON`); the JSON is the same.
    public func jws(claims: some Encodable) throws -> String {
        let payload: [UInt8]
        if let claims = claims as? any CompactJSON {
            payload = claims.compactJSON
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            payload = Array(try encoder.encode(claims))
        }
        // header.payload is signed, then .signature appended: one buffer, no intermediate strings.
        var token = headerSegment
        token.reserveCapacity(headerSegment.count + payload.count * 4 / 3 + 92)
        token.append(UInt8(ascii: "."))
        Base64URL.append(payload, to: &token)
        let signature = try privateKey.signature(for: token)
        token.append(UInt8(ascii: "."))
        Base64URL.append(Array(signature.rawRepresentation), to: &token)
        return String(decoding: token, as: UTF8.self)
    }

    /// An ECDSA P-256/SHA-256 signature of `message`, ASN.1 DER (the legacy promotional offer format).
    func derSignature(of message: Data) throws -> Data {
        try privateKey.signature(for: message).derRepresentation
    }
}

struct JWSHeader: Codable, Equatable {
    var alg = "ES256"
    var kid: String
    var typ = "JWT"
}
