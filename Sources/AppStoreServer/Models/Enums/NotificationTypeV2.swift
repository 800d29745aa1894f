/// `NotificationTypeV2`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct NotificationTypeV2: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let subscribed = NotificationTypeV2(rawValue: "SUBSCRIBED")
    public static let didChangeRenewalPref = NotificationTypeV2(rawValue: "DID_CHANGE_RENEWAL_PREF")
    public static let didChangeRenewalStatus = NotificationTypeV2(rawValue: "DID_CHANGE_RENEWAL_STATUS")
    public static let offerRedeemed = NotificationTypeV2(rawValue: "OFFER_REDEEMED")
    public static let didRenew = NotificationTypeV2(rawValue: "DID_RENEW")
    public static let expired = NotificationTypeV2(rawValue: "EXPIRED")
    public static let didFailToRenew = NotificationTypeV2(rawValue: "DID_FAIL_TO_RENEW")
    public static let gracePeriodExpired = NotificationTypeV2(rawValue: "GRACE_PERIOD_EXPIRED")
    public static let priceIncrease = NotificationTypeV2(rawValue: "PRICE_INCREASE")
    public static let refund = NotificationTypeV2(rawValue: "REFUND")
    public static let refundDeclined = NotificationTypeV2(rawValue: "REFUND_DECLINED")
    public static let consumptionRequest = NotificationTypeV2(rawValue: "CONSUMPTION_REQUEST")
    public static let renewalExtended = NotificationTypeV2(rawValue: "RENEWAL_EXTENDED")
    public static let revoke = NotificationTypeV2(rawValue: "REVOKE")
    public static let test = NotificationTypeV2(rawValue: "TEST")
    public static let renewalExtension = NotificationTypeV2(rawValue: "RENEWAL_EXTENSION")
    public static let refundReversed = NotificationTypeV2(rawValue: "REFUND_REVERSED")
    public static let externalPurchaseToken = NotificationTypeV2(rawValue: "EXTERNAL_PURCHASE_TOKEN")
    public static let oneTimeCharge = NotificationTypeV2(rawValue: "ONE_TIME_CHARGE")
    public static let rescindConsent = NotificationTypeV2(rawValue: "RESCIND_CONSENT")
    public static let metadataUpdate = NotificationTypeV2(rawValue: "METADATA_UPDATE")
    public static let migration = NotificationTypeV2(rawValue: "MIGRATION")
    public static let priceChange = NotificationTypeV2(rawValue: "PRICE_CHANGE")

    /// The values this build knows.
    public static let known: [NotificationTypeV2] = [
        .subscribed, .didChangeRenewalPref, .didChangeRenewalStatus, .offerRedeemed, .didRenew, .expired, .didFailToRenew, .gracePeriodExpired, .priceIncrease,
        .refund, .refundDeclined, .consumptionRequest, .renewalExtended, .revoke, .test, .renewalExtension, .refundReversed, .externalPurchaseToken,
        .oneTimeCharge, .rescindConsent, .metadataUpdate, .migration, .priceChange,
    ]
}
