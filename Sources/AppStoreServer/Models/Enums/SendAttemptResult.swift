/// `SendAttemptResult`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct SendAttemptResult: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let success = SendAttemptResult(rawValue: "SUCCESS")
    public static let timedOut = SendAttemptResult(rawValue: "TIMED_OUT")
    public static let tlsIssue = SendAttemptResult(rawValue: "TLS_ISSUE")
    public static let circularRedirect = SendAttemptResult(rawValue: "CIRCULAR_REDIRECT")
    public static let noResponse = SendAttemptResult(rawValue: "NO_RESPONSE")
    public static let socketIssue = SendAttemptResult(rawValue: "SOCKET_ISSUE")
    public static let unsuportedCharset = SendAttemptResult(rawValue: "UNSUPPORTED_CHARSET")
    public static let invalidResponse = SendAttemptResult(rawValue: "INVALID_RESPONSE")
    public static let prematureClose = SendAttemptResult(rawValue: "PREMATURE_CLOSE")
    public static let unsuccessfulHttpResponseCode = SendAttemptResult(rawValue: "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
    public static let other = SendAttemptResult(rawValue: "OTHER")

    /// The values this build knows.
    public static let known: [SendAttemptResult] = [
        .success, .timedOut, .tlsIssue, .circularRedirect, .noResponse, .socketIssue, .unsuportedCharset, .invalidResponse, .prematureClose,
        .unsuccessfulHttpResponseCode, .other,
    ]
}
