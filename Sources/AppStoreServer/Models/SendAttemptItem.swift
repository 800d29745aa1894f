import Foundation

/// `SendAttemptItem`, as Apple defines it.
public struct SendAttemptItem: Codable, Hashable, Sendable {
    /// The date the App Store server attempts to send a notification.
    public var attemptDate: Timestamp?
    /// The success or error information the App Store server records when it attempts to send an App Store server notification to your server.
    public var sendAttemptResult: SendAttemptResult?

    public init(attemptDate: Timestamp? = nil, sendAttemptResult: SendAttemptResult? = nil) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
    }
}
