import Foundation

/// `GetMessageListResponse`, as Apple defines it.
public struct GetMessageListResponse: Codable, Hashable, Sendable {
    /// An array of all message identifiers and their message state.
    public var messageIdentifiers: [GetMessageListResponseItem]?

    public init(messageIdentifiers: [GetMessageListResponseItem]? = nil) {
        self.messageIdentifiers = messageIdentifiers
    }
}
