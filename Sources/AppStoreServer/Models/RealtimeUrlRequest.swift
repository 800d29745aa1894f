import Foundation

/// `RealtimeUrlRequest`, as Apple defines it.
public struct RealtimeUrlRequest: Codable, Hashable, Sendable {
    /// A string that contains the URL of your Get Retention Message endpoint for configuration.
    public var realtimeURL: String

    public init(realtimeURL: String) {
        self.realtimeURL = realtimeURL
    }
}
