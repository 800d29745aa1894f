import Foundation

/// `RealtimeUrlResponse`, as Apple defines it.
public struct RealtimeUrlResponse: Codable, Hashable, Sendable {
    /// A string that contains the URL you provided for your Get Retention Message endpoint.
    public var realtimeURL: String

    public init(realtimeURL: String) {
        self.realtimeURL = realtimeURL
    }
}
