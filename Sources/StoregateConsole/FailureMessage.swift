import Foundation
import Storegate

/// What a failed action or search tells a support person: what happened and what to try, in plain words,
/// and the technical detail apart (the page folds it away). Apple's failures, a stored key that cannot be
/// opened and a database that did not answer are explained; any other refusal is the error's own
/// description, which names the field. Nothing here can hold a key or a token: `StoregateError`'s
/// description never does.
struct FailureMessage: Equatable {
    let text: String
    let detail: String?

    init(text: String, detail: String? = nil) {
        self.text = text
        self.detail = detail
    }

    init(_ error: StoregateError) {
        switch error {
        case .appStore(let field, let code, let reason, _):
            self.init(text: Self.apple(field: field, code: code, status: Self.httpStatus(code: code, reason: reason)), detail: Self.detail(error, code: code))
        case .keyUnavailable(let keyId, _):
            self.init(
                text:
                    "Storegate cannot open this app's In-App Purchase key (\(keyId)): ask whoever runs Storegate to check its master key, "
                    + "or add the key again.",
                detail: error.description)
        case .unavailable:
            self.init(text: "Storegate's database did not answer, and nothing was changed: try again in a minute.", detail: error.description)
        default:
            self.init(text: error.description)
        }
    }

    /// Apple's answer in words, by its error code where that says more, else by the HTTP status.
    static func apple(field: String, code: Int64?, status: Int?) -> String {
        switch code {
        case 4_030_004: return "Apple does not allow extending this subscription now (for example during a free trial or an offer, or once it has ended)."
        case 4_030_005: return "Apple allows no more extensions of this subscription this year (two a year at most)."
        case 4_030_007: return "Apple does not allow extending a subscription shared through Family Sharing."
        default: break
        }
        switch status {
        case 401?:
            return "Apple refused this app's In-App Purchase key: check the key ID, issuer ID and .p8 in App Store Connect, then try again."
        case 403?:
            return "Apple refused this request for this app: check in App Store Connect that the In-App Purchase key is active, then try again."
        case 404?:
            return "Apple does not know this \(thing(field)) in this app's environments: check it, and that the purchase was made in this app."
        case 429?: return "Apple is limiting requests; try again in a minute."
        case let status? where status >= 500: return "Apple did not answer; try again later."
        case nil: return "Apple did not answer; try again later."
        case let status? where (400..<500).contains(status): return "Apple refused the request as it was sent: check what was entered, then try again."
        default: return "Apple refused the request; the technical detail says why."
        }
    }

    /// The HTTP status Apple answered with: the first three digits of Apple's error code (4040010 is a
    /// 404), else the `(HTTP 401)` that `AppStoreServerAPIError` writes; nil when Apple was not reached.
    static func httpStatus(code: Int64?, reason: String) -> Int? {
        if let code, (1_000_000..<6_000_000).contains(code) { return Int(code / 10_000) }
        guard let range = reason.range(of: "(HTTP ") ?? reason.range(of: "answered HTTP ") else { return nil }
        return Int(reason[range.upperBound...].prefix { $0.isNumber })
    }

    static func detail(_ error: StoregateError, code: Int64?) -> String {
        error.description + (code.map { " (Apple's error code \($0))" } ?? "")
    }

    static func thing(_ field: String) -> String {
        switch field {
        case "transactionId": "transaction"
        case "originalTransactionId": "subscription"
        case "orderId", "q": "order ID"
        case "bundleId": "app"
        default: field
        }
    }
}
