import Foundation

/// What kind of signed payload a JWS carries.
public enum SignedPayloadKind: String, Sendable, Codable, CaseIterable {
    /// `ResponseBodyV2DecodedPayload` (App Store Server Notifications V2).
    case notification
    /// `JWSTransactionDecodedPayload`.
    case transaction
    /// `JWSRenewalInfoDecodedPayload`.
    case renewalInfo
    /// `AppTransaction`.
    case appTransaction
    /// `DecodedRealtimeRequestBody`: Apple's Get Retention Message request.
    case realtimeRequest
}

/// Why a signed payload was refused. Each case says precisely what failed; none is lossy.
public enum VerificationFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a compact JWS, or its header or payload is not the expected JSON.
    case malformed(String)
    /// The signature does not verify with the leaf certificate's key.
    case badSignature
    /// An `x5c` entry is not a certificate.
    case badCertificate(String)
    /// The chain does not lead to a trusted root at the validation time.
    case brokenChain(String)
    /// The leaf or intermediate lacks Apple's OID.
    case missingOID(certificate: String, oid: String)
    case wrongBundleId(expected: String, actual: String?)
    case wrongAppAppleId(expected: Int64?, actual: Int64?)
    case wrongEnvironment(expected: String, actual: String?)
    /// Xcode or LocalTesting data, which the App Store does not sign, without the development option.
    case unsignedEnvironment(String)
    /// A check that may pass later (OCSP unreachable): ask the sender to retry.
    case retryable(String)

    /// A stable machine-readable name.
    public var code: String {
        switch self {
        case .malformed: "malformed"
        case .badSignature: "badSignature"
        case .badCertificate: "badCertificate"
        case .brokenChain: "brokenChain"
        case .missingOID: "missingOID"
        case .wrongBundleId: "wrongBundleId"
        case .wrongAppAppleId: "wrongAppAppleId"
        case .wrongEnvironment: "wrongEnvironment"
        case .unsignedEnvironment: "unsignedEnvironment"
        case .retryable: "retryable"
        }
    }

    public var description: String {
        switch self {
        case .malformed(let reason): "malformed: \(reason)"
        case .badSignature: "bad signature: the payload does not verify with the leaf certificate"
        case .badCertificate(let reason): "bad certificate: \(reason)"
        case .brokenChain(let reason): "broken chain: \(reason)"
        case .missingOID(let certificate, let oid): "missing OID: the \(certificate) certificate lacks \(oid)"
        case .wrongBundleId(let expected, let actual): "wrong bundle ID: expected \(expected), got \(actual ?? "none")"
        case .wrongAppAppleId(let expected, let actual):
            "wrong app Apple ID: expected \(expected.map(String.init) ?? "none"), got \(actual.map(String.init) ?? "none")"
        case .wrongEnvironment(let expected, let actual): "wrong environment: expected \(expected), got \(actual ?? "none")"
        case .unsignedEnvironment(let environment): "\(environment) data is not signed by the App Store and is refused outside development"
        case .retryable(let reason): "retryable: \(reason)"
        }
    }

    public var isRetryable: Bool { if case .retryable = self { true } else { false } }
}

/// A payload that passed every check: its kind, its JSON exactly as signed, and the facts checked.
public struct VerifiedPayload: Sendable {
    public let kind: SignedPayloadKind
    /// The payload's JSON bytes, as signed.
    public let payload: Data
    public let environment: String?
    public let bundleId: String?
    public let signedDate: Date?
}

/// Expected outcomes are values: valid or invalid with the precise reason.
public enum VerificationResult: Sendable {
    case valid(VerifiedPayload)
    case invalid(VerificationFailure)

    public var payload: VerifiedPayload? { if case .valid(let p) = self { p } else { nil } }
    public var failure: VerificationFailure? { if case .invalid(let f) = self { f } else { nil } }
}

extension VerifiedPayload {
    /// The payload decoded as `T` (a model of this module).
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T { try JSONDecoder().decode(T.self, from: payload) }
}
