import Foundation

/// `GetMessageListResponseItem`, as Apple defines it.
public struct GetMessageListResponseItem: Codable, Hashable, Sendable {
    /// The identifier of the message.
    public var messageIdentifier: LowercaseUUID?
    /// The current state of the message.
    public var messageState: MessageState?

    public init(messageIdentifier: LowercaseUUID? = nil, messageState: MessageState? = nil) {
        self.messageIdentifier = messageIdentifier
        self.messageState = messageState
    }
}
