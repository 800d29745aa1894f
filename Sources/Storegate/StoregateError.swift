import AppStoreServer
import Foundation
import KeyVault

/// The domain's expected failures. Each names the field it is about; none carries key material, a
/// token or SQL. The transport maps them to stable JSON-RPC codes and the CLI prints them.
public enum StoregateError: Error, Equatable, CustomStringConvertible {
    /// Input that breaks a rule: `field` is a dotted path such as `apps[0].bundleId`.
    case invalid(field: String, reason: String)
    /// Nothing with this identifier exists for the caller (another tenant's ids look exactly the same).
    case notFound(field: String, value: String? = nil)
    /// The change conflicts with what is stored.
    case conflict(field: String, reason: String)
    case tenantSuspended(slug: String)
    case unauthenticated(String)
    /// A stored key could not be opened (wrong master key, tampered ciphertext).
    case keyUnavailable(keyId: String, reason: String)
    /// Signed data in `field` failed verification.
    case unverified(field: String, failure: VerificationFailure)
    /// Apple refused or could not be reached; `code` is Apple's error code when it gave one.
    case appStore(field: String, code: Int64?, reason: String, retryable: Bool)
    /// The database is down, restarting, out of connections or did not answer in time. Nothing was
    /// changed that was not rolled back; the same call may succeed later.
    case unavailable(reason: String)

    public var description: String {
        switch self {
        case .invalid(let field, let reason): "\(field) \(reason)"
        case .notFound(let field, let value?): "no such \(field) \"\(value)\""
        case .notFound(let field, nil): "no such \(field)"
        case .conflict(let field, let reason): "\(field): \(reason)"
        case .tenantSuspended(let slug): "tenant \(slug) is suspended"
        case .unauthenticated(let reason): reason
        case .keyUnavailable(let keyId, let reason): "key \(keyId) cannot be opened: \(reason)"
        case .unverified(let field, let failure): "\(field) failed verification: \(failure.description)"
        case .appStore(let field, _, let reason, _): "\(field): \(reason)"
        case .unavailable(let reason): "the database is unavailable: \(reason)"
        }
    }
}
