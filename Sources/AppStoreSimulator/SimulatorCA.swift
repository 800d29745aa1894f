import AppStoreServer
import Crypto
import Foundation
import SwiftASN1
import X509

/// The simulator's own certificate chain, generated at start: a root, an intermediate carrying Apple's
/// WWDR OID and a leaf carrying Apple's receipt-signing OID. It signs every JWS the simulator emits, with
/// `x5c` = [leaf, intermediate, root]. Its certificates carry key identifiers, so Apple's own verifiers
/// with strict checks accept them. Trust its root only in development configurations.
public struct SimulatorCA: Sendable {
    public let root: Certificate
    public let intermediate: Certificate
    public let leaf: Certificate
    /// The issuing keys, to run OCSP responders for this chain in tests (a development CA's, never Apple's).
    public let rootKey: P256.Signing.PrivateKey
    public let intermediateKey: P256.Signing.PrivateKey
    let leafKey: P256.Signing.PrivateKey
    let x5c: [String]

    /// `ocsp`: responder URLs to name in the certificates' Authority Information Access, as Apple's do: the
    /// root's responder (answers for the intermediate) and the intermediate's (answers for the leaf).
    public init(now: Date = Date(), ocsp: (root: String, intermediate: String)? = nil) throws {
        let rootKey = P256.Signing.PrivateKey()
        let intermediateKey = P256.Signing.PrivateKey()
        let leafKey = P256.Signing.PrivateKey()
        func responder(_ url: String?) -> AuthorityInformationAccess? {
            url.map { AuthorityInformationAccess([.init(method: .ocspServer, location: .uniformResourceIdentifier($0))]) }
        }
        let rootResponder = responder(ocsp?.root)
        let intermediateResponder = responder(ocsp?.intermediate)
        let rootName = try DistinguishedName {
            CommonName("Storegate App Store Simulator Root CA")
            OrganizationName("Storegate Simulator")
        }
        let intermediateName = try DistinguishedName {
            CommonName("Storegate Simulator WWDR Intermediate")
            OrganizationName("Storegate Simulator")
        }
        let leafName = try DistinguishedName {
            CommonName("Storegate Simulator App Store Signing")
            OrganizationName("Storegate Simulator")
        }
        // Key identifiers, as X.509 strict checking (Apple's own verifiers) requires: every certificate names its
        // key, and every issued one names its issuer's.
        let rootId = SubjectKeyIdentifier(hash: Certificate.PublicKey(rootKey.publicKey))
        let intermediateId = SubjectKeyIdentifier(hash: Certificate.PublicKey(intermediateKey.publicKey))
        let leafId = SubjectKeyIdentifier(hash: Certificate.PublicKey(leafKey.publicKey))
        let from = now.addingTimeInterval(-86_400 * 365)
        let until = now.addingTimeInterval(86_400 * 365 * 5)
        root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey), notValidBefore: from, notValidAfter: until, issuer: rootName,
            subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                rootId
            }, issuerPrivateKey: .init(rootKey))
        intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(intermediateKey.publicKey), notValidBefore: from, notValidAfter: until, issuer: rootName,
            subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                Certificate.Extension(oid: ChainVerifier.wwdrIntermediateOID, critical: false, value: [0x05, 0x00])
                intermediateId
                AuthorityKeyIdentifier(keyIdentifier: rootId.keyIdentifier)
                if let rootResponder { rootResponder }
            }, issuerPrivateKey: .init(rootKey))
        leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey), notValidBefore: from, notValidAfter: until, issuer: intermediateName,
            subject: leafName, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                Certificate.Extension(oid: ChainVerifier.receiptSigningOID, critical: false, value: [0x05, 0x00])
                leafId
                AuthorityKeyIdentifier(keyIdentifier: intermediateId.keyIdentifier)
                if let intermediateResponder { intermediateResponder }
            }, issuerPrivateKey: .init(intermediateKey))
        self.rootKey = rootKey
        self.intermediateKey = intermediateKey
        self.leafKey = leafKey
        self.x5c = try [leaf, intermediate, root].map { certificate in
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return Data(serializer.serializedBytes).base64EncodedString()
        }
    }

    /// What a simulator that keeps its state across restarts writes and reads back: the same chain, so that
    /// a Storegate trusting its root and the JWS it signed before stay valid. A development CA's keys only.
    public struct Saved: Codable, Sendable {
        let root, intermediate, leaf: Data
        let rootKey, intermediateKey, leafKey: Data
    }

    public var saved: Saved {
        get throws {
            func der(_ certificate: Certificate) throws -> Data {
                var serializer = DER.Serializer()
                try serializer.serialize(certificate)
                return Data(serializer.serializedBytes)
            }
            return Saved(
                root: try der(root), intermediate: try der(intermediate), leaf: try der(leaf), rootKey: rootKey.rawRepresentation,
                intermediateKey: intermediateKey.rawRepresentation, leafKey: leafKey.rawRepresentation)
        }
    }

    /// The chain `saved` describes.
    public init(_ saved: Saved) throws {
        root = try Certificate(derEncoded: Array(saved.root))
        intermediate = try Certificate(derEncoded: Array(saved.intermediate))
        leaf = try Certificate(derEncoded: Array(saved.leaf))
        rootKey = try P256.Signing.PrivateKey(rawRepresentation: saved.rootKey)
        intermediateKey = try P256.Signing.PrivateKey(rawRepresentation: saved.intermediateKey)
        leafKey = try P256.Signing.PrivateKey(rawRepresentation: saved.leafKey)
        x5c = [saved.leaf, saved.intermediate, saved.root].map { $0.base64EncodedString() }
    }

    /// The root as DER, to configure a development verifier (`storegate jws verify --root`).
    public var rootDER: Data {
        var serializer = DER.Serializer()
        try? serializer.serialize(root)
        return Data(serializer.serializedBytes)
    }

    /// A JWS as the App Store signs it: header `alg` ES256 and `x5c`, payload `claims`.
    public func sign(_ claims: some Encodable) throws -> String {
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "x5c": x5c], options: [.sortedKeys, .withoutEscapingSlashes])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(try encoder.encode(claims))
        let signature = try leafKey.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
