/// `DeliveryStatusV1`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct DeliveryStatusV1: AppStoreValue {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let deliveredAndWorkingProperly = DeliveryStatusV1(rawValue: 0)
    public static let didNotDeliverDueToQualityIssue = DeliveryStatusV1(rawValue: 1)
    public static let deliveredWrongItem = DeliveryStatusV1(rawValue: 2)
    public static let didNotDeliverDueToServerOutage = DeliveryStatusV1(rawValue: 3)
    public static let didNotDeliverDueToIngameCurrencyChange = DeliveryStatusV1(rawValue: 4)
    public static let didNotDeliverForOtherReason = DeliveryStatusV1(rawValue: 5)

    /// The values this build knows.
    public static let known: [DeliveryStatusV1] = [
        .deliveredAndWorkingProperly, .didNotDeliverDueToQualityIssue, .deliveredWrongItem, .didNotDeliverDueToServerOutage,
        .didNotDeliverDueToIngameCurrencyChange, .didNotDeliverForOtherReason,
    ]
}
