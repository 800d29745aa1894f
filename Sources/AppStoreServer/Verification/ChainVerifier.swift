import Crypto
import Foundation
import SwiftASN1
import Synchronization
// Validity at a fixed time (the payload's signedDate offline, `now` online) is swift-certificates' SPI since 1.21.
@_spi(FixedExpiryValidationTime) import X509

/// Verifies `x5c` chains (leaf → intermediate → a trusted root) with Apple's OIDs, and remembers
/// verified chains for `ttl` (bounded) so every caller in the process shares one cache.
public final class ChainVerifier: Sendable {
    public static let receiptSigningOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    public static let wwdrIntermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]

    let roots: [Certificate]
    let ttl: TimeInterval
    let capacity: Int
    let ocsp: (any OCSPTransport)?
    private let cache = Mutex([Data: CachedChain]())
    private let signers = Mutex([[UInt8]: Signer]())

    struct CachedChain {
        /// When the chain's certificates are all valid.
        let validFrom: Date
        let validUntil: Date
        let cachedUntil: Date
    }

    /// `roots`: the certificates to trust (Apple Root CA - G3 in production). With `ocsp`, every
    /// non-root certificate's revocation status is checked online (hard-fail) and validity is checked at
    /// the current time; without it, at the payload's signing time.
    public init(roots: [Certificate], ttl: TimeInterval = 15 * 60, capacity: Int = 1024, ocsp: (any OCSPTransport)? = nil) {
        self.roots = roots
        self.ttl = ttl
        self.capacity = capacity
        self.ocsp = ocsp
    }

    public var onlineChecks: Bool { ocsp != nil }

    /// Checks a leaf and intermediate given as DER: nil when trusted at `time`, else the precise failure.
    public func verifyChain(leafDER: Data, intermediateDER: Data, at time: Date, now: Date = Date()) async -> VerificationFailure? {
        guard let leaf = try? Certificate(derEncoded: Array(leafDER)) else { return .badCertificate("the leaf is not a DER certificate") }
        guard let intermediate = try? Certificate(derEncoded: Array(intermediateDER)) else {
            return .badCertificate("the intermediate is not a DER certificate")
        }
        guard let publicKey = P256.Signing.PublicKey(leaf.publicKey) else { return .badCertificate("the leaf key is not P-256") }
        return await verify(
            Signer(leaf: leaf, intermediate: intermediate, leafDER: leafDER, intermediateDER: intermediateDER, publicKey: publicKey), at: time, now: now)
    }

    /// A JWS header's `x5c` leaf and intermediate, parsed, with the leaf's key: what a signature and its
    /// chain are checked with. Parsed once per header text (see `signer(header:)`); trusted only once
    /// `verify` says so, each time.
    struct Signer: Sendable {
        let leaf: Certificate
        let intermediate: Certificate
        let leafDER: Data
        let intermediateDER: Data
        let publicKey: P256.Signing.PublicKey
        /// The key of the chain's entry in the cache of verified chains.
        let chainKey: Data

        init(leaf: Certificate, intermediate: Certificate, leafDER: Data, intermediateDER: Data, publicKey: P256.Signing.PublicKey) {
            self.leaf = leaf
            self.intermediate = intermediate
            self.leafDER = leafDER
            self.intermediateDER = intermediateDER
            self.publicKey = publicKey
            self.chainKey = Data(SHA256.hash(data: leafDER + intermediateDER))
        }
    }

    /// The signer of a header already parsed (its exact base64url text), if any.
    func signer(header: ArraySlice<UInt8>) -> Signer? {
        signers.withLock { $0[Array(header)] }
    }

    /// Remembers a parsed header (at most `capacity` of them: Apple signs with few certificates).
    func remember(_ signer: Signer, header: ArraySlice<UInt8>) {
        signers.withLock { signers in
            if signers.count >= capacity { signers.removeAll() }
            signers[Array(header)] = signer
        }
    }

    /// nil when the signer's chain is trusted at `time`, else the precise failure.
    func verify(_ signer: Signer, at time: Date, now: Date) async -> VerificationFailure? {
        let (leaf, intermediate, key) = (signer.leaf, signer.intermediate, signer.chainKey)
        if let hit = cache.withLock({ $0[key] }), hit.cachedUntil > now, hit.validFrom <= time, time <= hit.validUntil {
            return nil
        }
        let requester = ocsp.map(OCSPRequesterAdapter.init(transport:))
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy(fixedExpiryValidationTime: time)
            if let requester { OCSPVerifierPolicy(failureMode: .hard, requester: requester, fixedExpiryValidationTime: now) }
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        guard case .validCertificate(let chain) = result else {
            if let networkFailure = requester?.networkFailure { return .retryable("OCSP responder unreachable: \(networkFailure)") }
            if case .couldNotValidate(let failures) = result, let first = failures.first {
                return .brokenChain(String(describing: first.policyFailureReason))
            }
            return .brokenChain("no path from the leaf through the intermediate to a trusted root")
        }
        guard leaf.extensions[oid: Self.receiptSigningOID] != nil else { return .missingOID(certificate: "leaf", oid: Self.receiptSigningOID.description) }
        guard intermediate.extensions[oid: Self.wwdrIntermediateOID] != nil else {
            return .missingOID(certificate: "intermediate", oid: Self.wwdrIntermediateOID.description)
        }
        let entry = CachedChain(
            validFrom: chain.map(\.notValidBefore).max() ?? time, validUntil: chain.map(\.notValidAfter).min() ?? time, cachedUntil: now + ttl)
        cache.withLock { cache in
            if cache.count >= capacity { cache = cache.filter { $0.value.cachedUntil > now } }
            if cache.count >= capacity { cache.removeAll() }
            cache[key] = entry
        }
        return nil
    }

    /// Apple Root CA - G3 (SHA-256 63343ABF…3E9179), built in.
    public static func appleRootCAG3() throws -> Certificate {
        try Certificate(derEncoded: Array(AppleRootCAG3.der))
    }
}
