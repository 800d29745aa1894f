import Foundation

/// `DefaultConfigurationRequest`, as Apple defines it.
public struct DefaultConfigurationRequest: Codable, Hashable, Sendable {
    /// The message identifier of the message to configure as a default message.
    public var messageIdentifier: LowercaseUUID?

    public init(messageIdentifier: LowercaseUUID? = nil) {
        self.messageIdentifier = messageIdentifier
    }
}
