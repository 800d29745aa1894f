import Foundation

/// `ConsumptionRequestV1`, as Apple defines it.
public struct ConsumptionRequestV1: Codable, Hashable, Sendable {
    /// A Boolean value that indicates whether the customer consented to provide consumption data to the App Store.
    public var customerConsented: Bool?
    /// A value that indicates the extent to which the customer consumed the in-app purchase.
    public var consumptionStatus: ConsumptionStatus?
    /// A value that indicates the platform on which the customer consumed the in-app purchase.
    public var platform: Platform?
    /// A Boolean value that indicates whether you provided, prior to its purchase, a free sample or trial of the content, or information about its functionality.
    public var sampleContentProvided: Bool?
    /// A value that indicates whether the app successfully delivered an in-app purchase that works properly.
    public var deliveryStatus: DeliveryStatusV1?
    /// The age of the customer’s account.
    public var accountTenure: AccountTenure?
    /// A value that indicates the amount of time that the customer used the app.
    public var playTime: PlayTime?
    /// A value that indicates the total amount, in USD, of refunds the customer has received, in your app, across all platforms.
    public var lifetimeDollarsRefunded: LifetimeDollarsRefunded?
    /// A value that indicates the total amount, in USD, of in-app purchases the customer has made in your app, across all platforms.
    public var lifetimeDollarsPurchased: LifetimeDollarsPurchased?
    /// The status of the customer’s account.
    public var userStatus: UserStatus?
    /// A value that indicates your preference, based on your operational logic, as to whether Apple should grant the refund.
    public var refundPreference: RefundPreferenceV1?

    public init(
        customerConsented: Bool? = nil, consumptionStatus: ConsumptionStatus? = nil, platform: Platform? = nil, sampleContentProvided: Bool? = nil,
        deliveryStatus: DeliveryStatusV1? = nil, accountTenure: AccountTenure? = nil, playTime: PlayTime? = nil,
        lifetimeDollarsRefunded: LifetimeDollarsRefunded? = nil, lifetimeDollarsPurchased: LifetimeDollarsPurchased? = nil, userStatus: UserStatus? = nil,
        refundPreference: RefundPreferenceV1? = nil
    ) {
        self.customerConsented = customerConsented
        self.consumptionStatus = consumptionStatus
        self.platform = platform
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.accountTenure = accountTenure
        self.playTime = playTime
        self.lifetimeDollarsRefunded = lifetimeDollarsRefunded
        self.lifetimeDollarsPurchased = lifetimeDollarsPurchased
        self.userStatus = userStatus
        self.refundPreference = refundPreference
    }
}
