import Foundation

/// `DefaultConfigurationResponse`, as Apple defines it.
public struct DefaultConfigurationResponse: Codable, Hashable, Sendable {
    /// The message identifier of the retention message you configured as a default.
    public var messageIdentifier: LowercaseUUID

    public init(messageIdentifier: LowercaseUUID) {
        self.messageIdentifier = messageIdentifier
    }
}
