import Foundation

/// `SendTestNotificationResponse`, as Apple defines it.
public struct SendTestNotificationResponse: Codable, Hashable, Sendable {
    /// A unique identifier for a notification test that the App Store server sends to your server.
    public var testNotificationToken: String?

    public init(testNotificationToken: String? = nil) {
        self.testNotificationToken = testNotificationToken
    }
}
