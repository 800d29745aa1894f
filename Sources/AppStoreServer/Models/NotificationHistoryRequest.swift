import Foundation

/// `NotificationHistoryRequest`, as Apple defines it.
public struct NotificationHistoryRequest: Codable, Hashable, Sendable {
    /// The start date of the timespan for the requested App Store Server Notification history records. The startDate needs to precede the endDate. Choose a startDate that’s within the past 180 days from the current date.
    public var startDate: Timestamp?
    /// The end date of the timespan for the requested App Store Server Notification history records. Choose an endDate that’s later than the startDate. If you choose an endDate in the future, the endpoint automatically uses the current date as the endDate.
    public var endDate: Timestamp?
    /// A notification type. Provide this field to limit the notification history records to those with this one notification type. For a list of notifications types, see notificationType. Include either the transactionId or the notificationType in your query, but not both.
    public var notificationType: NotificationTypeV2?
    /// A notification subtype. Provide this field to limit the notification history records to those with this one notification subtype. For a list of subtypes, see subtype. If you specify a notificationSubtype, you need to also specify its related notificationType.
    public var notificationSubtype: Subtype?
    /// The transaction identifier, which may be an original transaction identifier, of any transaction belonging to the customer. Provide this field to limit the notification history request to this one customer. Include either the transactionId or the notificationType in your query, but not both.
    public var transactionId: String?
    /// A Boolean value you set to true to request only the notifications that haven’t reached your server successfully. The response also includes notifications that the App Store server is currently retrying to send to your server.
    public var onlyFailures: Bool?

    public init(
        startDate: Timestamp? = nil, endDate: Timestamp? = nil, notificationType: NotificationTypeV2? = nil, notificationSubtype: Subtype? = nil,
        transactionId: String? = nil, onlyFailures: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.transactionId = transactionId
        self.onlyFailures = onlyFailures
    }
}
