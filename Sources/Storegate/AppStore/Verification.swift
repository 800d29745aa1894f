import AppStoreServer
import Foundation

/// Verifies Apple's signed data for an app, with the process-wide chain cache: device data in whichever
/// of the app's environments it names, and server data (notifications, API responses) in a known one.
struct Verification: Sendable {
    let chains: ChainVerifier
    let allowUnsignedEnvironments: Bool

    func verifier(app: App, environment: AppStoreEnvironment) -> SignedDataVerifier {
        SignedDataVerifier(
            configuration: .init(
                bundleId: app.bundleId, appAppleId: app.appAppleId, environment: environment.rawValue, allowUnsignedEnvironments: allowUnsignedEnvironments),
            chains: chains)
    }

    /// Device data: the environment it names only chooses the verifier. The signature is checked first
    /// either way, so tampered data reads as tampered, not as being from the wrong environment.
    func verify(_ jws: String, as kind: SignedPayloadKind, app: App, field: String) async throws -> VerifiedPayload {
        let named = Self.unverifiedEnvironment(jws, kind: kind)
        let acceptable = named.flatMap { environment in
            app.environments.contains(environment) || (allowUnsignedEnvironments && [.xcode, .localTesting].contains(environment)) ? environment : nil
        }
        let wrongEnvironment = StoregateError.unverified(
            field: field, failure: .wrongEnvironment(expected: app.environments.map(\.rawValue).joined(separator: " or "), actual: named?.rawValue))
        switch await verifier(app: app, environment: acceptable ?? app.environments.first ?? .production).verify(jws, as: kind) {
        case .valid(let payload):
            guard acceptable != nil else { throw wrongEnvironment }
            return payload
        case .invalid(.wrongEnvironment) where acceptable == nil: throw wrongEnvironment
        case .invalid(let failure): throw StoregateError.unverified(field: field, failure: failure)
        }
    }

    /// Device data verified and decoded as `T`.
    func decode<T: Decodable>(_ jws: String, as kind: SignedPayloadKind, app: App, field: String, _ type: T.Type) async throws -> T {
        try await verify(jws, as: kind, app: app, field: field).decode(T.self)
    }

    /// Apple's server data (an API answer, a notification's nested data), verified as data of `app` in a
    /// known `environment`; a failure is `unverified`, naming `field`.
    func serverData(_ jws: String, as kind: SignedPayloadKind, app: App, environment: AppStoreEnvironment, field: String) async throws -> VerifiedPayload {
        switch await verifier(app: app, environment: environment).verify(jws, as: kind) {
        case .invalid(let failure): throw StoregateError.unverified(field: field, failure: failure)
        case .valid(let payload): return payload
        }
    }

    /// An app transaction from Apple's server data, verified and ready to store.
    func appTransaction(
        _ jws: String, app: App, environment: AppStoreEnvironment, field: String, consentRescindedAt: Date? = nil
    ) async throws -> StoredAppTransaction {
        let verified = try await serverData(jws, as: .appTransaction, app: app, environment: environment, field: field)
        return try StoredAppTransaction(verified, signed: jws, app: app, environment: environment, field: field, consentRescindedAt: consentRescindedAt)
    }

    /// A transaction (and its renewal info) from Apple's server data, as data of `app` in `environment`.
    func purchase(
        signedTransaction: String, signedRenewalInfo: String?, app: App, environment: AppStoreEnvironment, field: String
    ) async throws
        -> SignedPurchase
    {
        let verified = try await serverData(signedTransaction, as: .transaction, app: app, environment: environment, field: field)
        var renewal: JWSRenewalInfoDecodedPayload?
        if let signedRenewalInfo {
            renewal = try await serverData(signedRenewalInfo, as: .renewalInfo, app: app, environment: environment, field: "signedRenewalInfo")
                .decode(JWSRenewalInfoDecodedPayload.self)
        }
        return try SignedPurchase(verified, signedTransaction: signedTransaction, renewal: renewal, environment: environment, field: field)
    }

    /// The environment the payload names, read before verification to choose the verifier.
    static func unverifiedEnvironment(_ jws: String, kind: SignedPayloadKind) -> AppStoreEnvironment? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Base64URL.decode(parts[1]), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return nil
        }
        return (object[kind == .appTransaction ? "receiptType" : "environment"] as? String).map(AppStoreEnvironment.init(rawValue:))
    }
}
