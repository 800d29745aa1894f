import Foundation

/// Why a call to the App Store Server API failed. Apple's error code is kept even when unknown.
public enum AppStoreServerAPIError: Error, Sendable, CustomStringConvertible {
    /// Apple answered with an error status; `code` is from the body when it had one.
    case api(status: Int, code: APIErrorCode?, message: String?, retryAfter: Date?)
    /// The request did not complete: connection failure or timeout.
    case transport(String)
    /// A success status with a body that is not the expected JSON.
    case invalidResponse(status: Int, reason: String)
    /// The bearer token could not be signed.
    case signing(String)

    public var description: String {
        switch self {
        case .api(let status, let code, let message, _):
            "App Store Server API error \(code.map { String($0.rawValue) } ?? "-") (HTTP \(status))\(message.map { ": \($0)" } ?? "")"
        case .transport(let reason): "App Store Server API unreachable: \(reason)"
        case .invalidResponse(let status, let reason): "App Store Server API answered HTTP \(status) with an unreadable body: \(reason)"
        case .signing(let reason): "cannot sign the App Store Server API token: \(reason)"
        }
    }

    public var apiErrorCode: APIErrorCode? { if case .api(_, let code, _, _) = self { code } else { nil } }

    /// Worth retrying: Apple's retryable codes, any 5xx, and transport failures.
    public var isRetryable: Bool {
        switch self {
        case .api(let status, let code, _, _): status >= 500 || status == 429 || code?.isRetryable == true
        case .transport: true
        case .invalidResponse, .signing: false
        }
    }
}

/// How often and how long to retry: exponential backoff with full jitter, bounded in attempts and in
/// total time. A 429's `Retry-After` (a UNIX time in milliseconds) is honoured when it fits the budget.
public struct RetryPolicy: Sendable {
    public var maxAttempts: Int
    public var baseDelay: Duration
    public var maxDelay: Duration
    /// The most time one call may spend, waits included.
    public var budget: Duration

    public init(maxAttempts: Int = 4, baseDelay: Duration = .milliseconds(250), maxDelay: Duration = .seconds(8), budget: Duration = .seconds(30)) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.budget = budget
    }

    public static let none = RetryPolicy(maxAttempts: 1)

    /// The wait before attempt `attempt + 1` (attempt counts from 1).
    func delay(after attempt: Int) -> Duration {
        let exponential = baseDelay * (1 << min(attempt - 1, 16))
        let capped = min(exponential, maxDelay)
        let nanoseconds = capped.components.seconds * 1_000_000_000 + capped.components.attoseconds / 1_000_000_000
        return .nanoseconds(Int64.random(in: 0...max(nanoseconds, 1)))
    }
}
