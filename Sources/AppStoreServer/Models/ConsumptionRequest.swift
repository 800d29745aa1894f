import Foundation

/// `ConsumptionRequest`, as Apple defines it.
public struct ConsumptionRequest: Codable, Hashable, Sendable {
    /// A Boolean value that indicates whether the customer consented to provide consumption data to the App Store.
    public var customerConsented: Bool
    /// An integer that indicates the percentage, in milliunits, of the In-App Purchase the customer consumed.
    public var consumptionPercentage: Int32?
    /// A value that indicates whether the app successfully delivered an In-App Purchase that works properly.
    public var deliveryStatus: DeliveryStatus
    /// A value that indicates your preferred outcome for the refund request.
    public var refundPreference: RefundPreference?
    /// A Boolean value that indicates whether you provided, prior to its purchase, a free sample or trial of the content, or information about its functionality.
    public var sampleContentProvided: Bool

    public init(
        customerConsented: Bool, consumptionPercentage: Int32? = nil, deliveryStatus: DeliveryStatus, refundPreference: RefundPreference? = nil,
        sampleContentProvided: Bool
    ) {
        self.customerConsented = customerConsented
        self.consumptionPercentage = consumptionPercentage
        self.deliveryStatus = deliveryStatus
        self.refundPreference = refundPreference
        self.sampleContentProvided = sampleContentProvided
    }
}
