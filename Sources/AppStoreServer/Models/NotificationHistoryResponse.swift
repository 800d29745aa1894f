import Foundation

/// `NotificationHistoryResponse`, as Apple defines it.
public struct NotificationHistoryResponse: Codable, Hashable, Sendable {
    /// A pagination token that you return to the endpoint on a subsequent call to receive the next set of results.
    public var paginationToken: String?
    /// A Boolean value indicating whether the App Store has more transaction data.
    public var hasMore: Bool?
    /// An array of App Store server notification history records.
    public var notificationHistory: [NotificationHistoryResponseItem]?

    public init(paginationToken: String? = nil, hasMore: Bool? = nil, notificationHistory: [NotificationHistoryResponseItem]? = nil) {
        self.paginationToken = paginationToken
        self.hasMore = hasMore
        self.notificationHistory = notificationHistory
    }
}
