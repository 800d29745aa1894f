import Crypto
import Foundation
import SwiftASN1
import Synchronization
import X509

/// Verifies `x5c` chains (leaf → intermediate → a trusted root) with Apple's OIDs, and remembers
/// verified chains for `ttl` (bounded) so every caller in the process shares one cache.
public final class ChainVerifier: Sendable {
    public static let receiptSigningOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    public static let wwdrIntermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]

    let roots: [Certificate]
    let ttl: TimeInterval
    let capacity: Int
    let online: (any OnlineChainCheck)?
    private let cache = Mutex([Data: CachedChain]())

    struct CachedChain {
        /// When the chain's certificates are all valid.
        let validFrom: Date
        let validUntil: Date
        let cachedUntil: Date
    }

    /// `roots`: DER certificates to trust, Apple Root CA - G3 unless told otherwise.
    public init(roots: [Certificate], ttl: TimeInterval = 15 * 60, capacity: Int = 1024, online: (any OnlineChainCheck)? = nil) {
        self.roots = roots
        self.ttl = ttl
        self.capacity = capacity
        self.online = online
    }

    public var onlineChecks: Bool { online != nil }

    /// Checks a leaf and intermediate given as DER: nil when trusted at `time`, else the precise failure.
    public func verifyChain(leafDER: Data, intermediateDER: Data, at time: Date, now: Date = Date()) async -> VerificationFailure? {
        guard let leaf = try? Certificate(derEncoded: Array(leafDER)) else { return .badCertificate("the leaf is not a DER certificate") }
        guard let intermediate = try? Certificate(derEncoded: Array(intermediateDER)) else { return .badCertificate("the intermediate is not a DER certificate") }
        return await verify(leaf: leaf, intermediate: intermediate, leafDER: leafDER, intermediateDER: intermediateDER, at: time, now: now)
    }

    /// nil when the chain is trusted at `time`, else the precise failure.
    func verify(leaf: Certificate, intermediate: Certificate, leafDER: Data, intermediateDER: Data, at time: Date, now: Date) async -> VerificationFailure? {
        let key = Data(SHA256.hash(data: leafDER + intermediateDER))
        if let hit = cache.withLock({ $0[key] }), hit.cachedUntil > now, hit.validFrom <= time, time <= hit.validUntil {
            return nil
        }
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) { RFC5280Policy(validationTime: time) }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        guard case .validCertificate(let chain) = result else {
            if case .couldNotValidate(let failures) = result, let first = failures.first {
                return .brokenChain(String(describing: first.policyFailureReason))
            }
            return .brokenChain("no path from the leaf through the intermediate to a trusted root")
        }
        guard leaf.extensions[oid: Self.receiptSigningOID] != nil else { return .missingOID(certificate: "leaf", oid: Self.receiptSigningOID.description) }
        guard intermediate.extensions[oid: Self.wwdrIntermediateOID] != nil else {
            return .missingOID(certificate: "intermediate", oid: Self.wwdrIntermediateOID.description)
        }
        if let online, let failure = await online.check(chain: Array(chain), at: now) { return failure }
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
    public static func appleRootCAG3() -> Certificate {
        // The DER is a constant of this file; parsing it cannot fail.
        guard let certificate = try? Certificate(derEncoded: Array(AppleRootCAG3.der)) else { preconditionFailure("built-in Apple Root CA - G3 is corrupt") }
        return certificate
    }
}

/// A revocation check that needs the network (OCSP). A failure to reach the responder is `retryable`.
public protocol OnlineChainCheck: Sendable {
    func check(chain: [Certificate], at now: Date) async -> VerificationFailure?
}
