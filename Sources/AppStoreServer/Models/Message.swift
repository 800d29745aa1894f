import Foundation

/// `Message`, as Apple defines it.
public struct Message: Codable, Hashable, Sendable {
    /// The identifier of the message to display to the customer.
    public var messageIdentifier: LowercaseUUID?

    public init(messageIdentifier: LowercaseUUID? = nil) {
        self.messageIdentifier = messageIdentifier
    }
}
