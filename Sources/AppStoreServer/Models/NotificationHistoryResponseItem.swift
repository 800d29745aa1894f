import Foundation

/// `NotificationHistoryResponseItem`, as Apple defines it.
public struct NotificationHistoryResponseItem: Codable, Hashable, Sendable {
    /// A cryptographically signed payload, in JSON Web Signature (JWS) format, containing the response body for a version 2 notification.
    public var signedPayload: String?
    /// An array of information the App Store server records for its attempts to send a notification to your server. The maximum number of entries in the array is six.
    public var sendAttempts: [SendAttemptItem]?

    public init(signedPayload: String? = nil, sendAttempts: [SendAttemptItem]? = nil) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}
