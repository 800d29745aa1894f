import Crypto
import Foundation
import SwiftASN1
import X509

/// Verifies any Apple-signed payload for one app and environment: the JWS structure, the `x5c`
/// chain to a trusted root with Apple's OIDs, the ES256 signature, then the bundle ID, app Apple ID
/// and environment the payload names. One entry point for every kind; it says which kind it was.
public struct SignedDataVerifier: Sendable {
    public struct Configuration: Sendable {
        /// The app's bundle ID; nil skips the check (for inspecting a payload, never for accepting one).
        public var bundleId: String?
        /// Checked for Production notifications, app transactions and realtime requests.
        public var appAppleId: Int64?
        /// Apple's environment name: `Production`, `Sandbox`, or (development only) `Xcode`, `LocalTesting`;
        /// nil skips the check (for inspecting a payload, never for accepting one).
        public var environment: String?
        /// Accept Xcode and LocalTesting data, which nothing signs. Never in production.
        public var allowUnsignedEnvironments = false

        public init(bundleId: String?, appAppleId: Int64?, environment: String?, allowUnsignedEnvironments: Bool = false) {
            self.bundleId = bundleId
            self.appAppleId = appAppleId
            self.environment = environment
            self.allowUnsignedEnvironments = allowUnsignedEnvironments
        }
    }

    public let configuration: Configuration
    public let chains: ChainVerifier
    let now: @Sendable () -> Date

    public init(configuration: Configuration, chains: ChainVerifier, now: @escaping @Sendable () -> Date = Date.init) {
        self.configuration = configuration
        self.chains = chains
        self.now = now
    }

    static let unsignedEnvironments: Set<String> = ["Xcode", "LocalTesting"]

    /// Verifies `jws`; `kind` pins the expected kind (otherwise it is read from the payload).
    public func verify(_ jws: String, as expectedKind: SignedPayloadKind? = nil) async -> VerificationResult {
        var parts = 0
        guard let jws = CompactJWS(jws, parts: &parts) else {
            return .invalid(.malformed("a compact JWS has three dot-separated parts, this has \(parts)"))
        }
        // A header seen before (Apple signs with few certificates) is not decoded and parsed again.
        let known = chains.signer(header: jws.header)
        var header: Header?
        if known == nil {
            guard let headerBytes = Base64URL.decode(bytes: jws.header), let decoded = try? JSONDecoder().decode(Header.self, from: headerBytes) else {
                return .invalid(.malformed("the header is not base64url JSON"))
            }
            header = decoded
        }
        guard let payloadBytes = Base64URL.decode(bytes: jws.payload) else { return .invalid(.malformed("the payload is not base64url")) }

        if let environment = configuration.environment, Self.unsignedEnvironments.contains(environment) {
            guard configuration.allowUnsignedEnvironments else { return .invalid(.unsignedEnvironment(environment)) }
            return check(payloadBytes, expectedKind: expectedKind)
        }

        let signer: ChainVerifier.Signer
        if let known {
            signer = known
        } else if let header {
            switch self.signer(of: header, payload: payloadBytes, expectedKind: expectedKind) {
            case .signer(let parsed):
                signer = parsed
                chains.remember(parsed, header: jws.header)
            case .result(let result):
                return result
            }
        } else {
            return .invalid(.malformed("the header is not base64url JSON"))
        }

        guard let signatureBytes = Base64URL.decode(bytes: jws.signature), let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            signer.publicKey.isValidSignature(signature, for: jws.signingInput)
        else {
            return .invalid(.badSignature)
        }

        let facts: PayloadFacts
        do {
            facts = try JSONDecoder().decode(PayloadFacts.self, from: payloadBytes)
        } catch {
            return .invalid(.malformed("the payload is not the JSON of a signed App Store payload"))
        }
        let now = now()
        let time = chains.onlineChecks ? now : (facts.signingTime ?? now)
        if let failure = await chains.verify(signer, at: time, now: now) {
            return .invalid(failure)
        }
        return check(payloadBytes, facts: facts, expectedKind: expectedKind)
    }

    private enum ParsedHeader {
        case signer(ChainVerifier.Signer)
        /// The header settles the outcome: a failure, or development data that carries no chain.
        case result(VerificationResult)
    }

    /// The header's ES256 algorithm and `x5c` chain, parsed.
    private func signer(of header: Header, payload payloadBytes: Data, expectedKind: SignedPayloadKind?) -> ParsedHeader {
        guard header.alg == "ES256" else { return .result(.invalid(.malformed("alg is \(header.alg ?? "missing"), not ES256"))) }
        guard let x5c = header.x5c, x5c.count == 3 else {
            // Development data carries no App Store chain: say so precisely rather than "malformed".
            if let facts = try? JSONDecoder().decode(PayloadFacts.self, from: payloadBytes),
                let environment = facts.identity(as: expectedKind ?? facts.kind).environment, Self.unsignedEnvironments.contains(environment)
            {
                guard configuration.allowUnsignedEnvironments, configuration.environment == nil || configuration.environment == environment else {
                    return .result(.invalid(.unsignedEnvironment(environment)))
                }
                return .result(check(payloadBytes, facts: facts, expectedKind: expectedKind))
            }
            return .result(.invalid(.malformed(header.x5c.map { "x5c holds \($0.count) certificates, not 3" } ?? "the header has no x5c certificate chain")))
        }
        var certificates: [(Certificate, Data)] = []
        for (index, entry) in x5c.prefix(2).enumerated() {
            guard let der = Data(base64Encoded: entry) else { return .result(.invalid(.badCertificate("x5c[\(index)] is not base64"))) }
            guard let certificate = try? Certificate(derEncoded: Array(der)) else {
                return .result(.invalid(.badCertificate("x5c[\(index)] is not a DER certificate")))
            }
            certificates.append((certificate, der))
        }
        guard let publicKey = P256.Signing.PublicKey(certificates[0].0.publicKey) else {
            return .result(.invalid(.badCertificate("the leaf key is not P-256")))
        }
        return .signer(
            ChainVerifier.Signer(
                leaf: certificates[0].0, intermediate: certificates[1].0, leafDER: certificates[0].1, intermediateDER: certificates[1].1, publicKey: publicKey))
    }

    /// The per-kind checks of bundle ID, app Apple ID (Production) and environment, in that order.
    private func check(_ payload: Data, facts: PayloadFacts? = nil, expectedKind: SignedPayloadKind?) -> VerificationResult {
        guard let facts = facts ?? (try? JSONDecoder().decode(PayloadFacts.self, from: payload)) else {
            return .invalid(.malformed("the payload is not the JSON of a signed App Store payload"))
        }
        let kind = expectedKind ?? facts.kind
        let identity = facts.identity(as: kind)
        // Renewal info and realtime requests name no bundle ID.
        if let bundleId = configuration.bundleId, kind != .renewalInfo, kind != .realtimeRequest, identity.bundleId != bundleId {
            return .invalid(.wrongBundleId(expected: bundleId, actual: identity.bundleId))
        }
        if [.notification, .appTransaction, .realtimeRequest].contains(kind), configuration.environment == "Production",
            identity.appAppleId != configuration.appAppleId
        {
            return .invalid(.wrongAppAppleId(expected: configuration.appAppleId, actual: identity.appAppleId))
        }
        if let environment = configuration.environment, identity.environment != environment {
            return .invalid(.wrongEnvironment(expected: environment, actual: identity.environment))
        }
        return .valid(
            VerifiedPayload(kind: kind, payload: payload, environment: identity.environment, bundleId: identity.bundleId, signedDate: facts.signingTime))
    }

    struct Header: Decodable {
        let alg: String?
        let x5c: [String]?
    }
}
