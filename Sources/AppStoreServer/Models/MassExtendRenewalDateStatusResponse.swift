import Foundation

/// `MassExtendRenewalDateStatusResponse`, as Apple defines it.
public struct MassExtendRenewalDateStatusResponse: Codable, Hashable, Sendable {
    /// A string that contains a unique identifier you provide to track each subscription-renewal-date extension request.
    public var requestIdentifier: String?
    /// A Boolean value that indicates whether the App Store completed the request to extend a subscription renewal date to active subscribers.
    public var complete: Bool?
    /// The UNIX time, in milliseconds, that the App Store completes a request to extend a subscription renewal date for eligible subscribers.
    public var completeDate: Timestamp?
    /// The count of subscriptions that successfully receive a subscription-renewal-date extension.
    public var succeededCount: Int64?
    /// The count of subscriptions that fail to receive a subscription-renewal-date extension.
    public var failedCount: Int64?

    public init(
        requestIdentifier: String? = nil, complete: Bool? = nil, completeDate: Timestamp? = nil, succeededCount: Int64? = nil, failedCount: Int64? = nil
    ) {
        self.requestIdentifier = requestIdentifier
        self.complete = complete
        self.completeDate = completeDate
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}
