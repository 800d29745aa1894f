import Crypto
import Foundation

/// An App Store Connect In-App Purchase key, parsed once and reused for every signature it makes.
public struct SigningKey: Sendable {
    public let keyId: String
    public let issuerId: String
    public let bundleId: String
    let privateKey: P256.Signing.PrivateKey

    public init(keyId: String, issuerId: String, bundleId: String, privateKey: P256.Signing.PrivateKey) {
        self.keyId = keyId
        self.issuerId = issuerId.lowercased()
        self.bundleId = bundleId
        self.privateKey = privateKey
    }

    /// Parses a `.p8` (PEM PKCS#8 P-256).
    public init(keyId: String, issuerId: String, bundleId: String, p8 pem: String) throws(PrivateKeyPEM.Failure) {
        self.init(keyId: keyId, issuerId: issuerId, bundleId: bundleId, privateKey: try PrivateKeyPEM.parse(pem))
    }

    public var publicKey: P256.Signing.PublicKey { privateKey.publicKey }

    /// A compact JWS with header `{"alg":"ES256","kid":…,"typ":"JWT"}` over `claims`, signature raw r‖s.
    public func jws(claims: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let header = try encoder.encode(JWSHeader(kid: keyId))
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(try encoder.encode(claims))
        let signature = try privateKey.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
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
