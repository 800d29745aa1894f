import Foundation

/// `ResponseBodyV2DecodedPayload`, as Apple defines it.
public struct ResponseBodyV2DecodedPayload: Codable, Hashable, Sendable {
    /// The in-app purchase event for which the App Store sends this version 2 notification.
    public var notificationType: NotificationTypeV2?
    /// Additional information that identifies the notification event. The subtype field is present only for specific version 2 notifications.
    public var subtype: Subtype?
    /// A unique identifier for the notification.
    public var notificationUUID: String?
    /// The object that contains the app metadata and signed renewal and transaction information. The data, summary, and externalPurchaseToken fields are mutually exclusive. The payload contains only one of these fields.
    public var data: NotificationData?
    /// A string that indicates the notification’s App Store Server Notifications version number.
    public var version: String?
    /// The UNIX time, in milliseconds, that the App Store signed the JSON Web Signature data.
    public var signedDate: Timestamp?
    /// The summary data that appears when the App Store server completes your request to extend a subscription renewal date for eligible subscribers. The data, summary, and externalPurchaseToken fields are mutually exclusive. The payload contains only one of these fields.
    public var summary: Summary?
    /// This field appears when the notificationType is EXTERNAL_PURCHASE_TOKEN. The data, summary, and externalPurchaseToken fields are mutually exclusive. The payload contains only one of these fields.
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// This field appears when the notificationType is RESCIND_CONSENT. It contains the app metadata and signed app transaction information.
    public var appData: AppData?

    public init(
        notificationType: NotificationTypeV2? = nil, subtype: Subtype? = nil, notificationUUID: String? = nil, data: NotificationData? = nil,
        version: String? = nil, signedDate: Timestamp? = nil, summary: Summary? = nil, externalPurchaseToken: ExternalPurchaseToken? = nil,
        appData: AppData? = nil
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.data = data
        self.version = version
        self.signedDate = signedDate
        self.summary = summary
        self.externalPurchaseToken = externalPurchaseToken
        self.appData = appData
    }
}
