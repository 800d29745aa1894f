import Foundation

/// `NotificationData`, as Apple defines it.
public struct NotificationData: Codable, Hashable, Sendable {
    /// The server environment that the notification applies to, either sandbox or production.
    public var environment: AppStoreEnvironment?
    /// The unique identifier of an app in the App Store.
    public var appAppleId: Int64?
    /// The bundle identifier of an app.
    public var bundleId: String?
    /// The version of the build that identifies an iteration of the bundle.
    public var bundleVersion: String?
    /// Transaction information signed by the App Store, in JSON Web Signature (JWS) format.
    public var signedTransactionInfo: String?
    /// Subscription renewal information, signed by the App Store, in JSON Web Signature (JWS) format.
    public var signedRenewalInfo: String?
    /// The status of an auto-renewable subscription as of the signedDate in the responseBodyV2DecodedPayload.
    public var status: Status?
    /// The reason the customer requested the refund.
    public var consumptionRequestReason: ConsumptionRequestReason?

    public init(
        environment: AppStoreEnvironment? = nil, appAppleId: Int64? = nil, bundleId: String? = nil, bundleVersion: String? = nil,
        signedTransactionInfo: String? = nil, signedRenewalInfo: String? = nil, status: Status? = nil, consumptionRequestReason: ConsumptionRequestReason? = nil
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.bundleVersion = bundleVersion
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.status = status
        self.consumptionRequestReason = consumptionRequestReason
    }
}
