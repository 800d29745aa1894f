/// `Subtype`: an open set of Apple's values. A value this build does not know is kept as its raw value
/// and survives a round trip.
public struct Subtype: AppStoreValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let initialBuy = Subtype(rawValue: "INITIAL_BUY")
    public static let resubscribe = Subtype(rawValue: "RESUBSCRIBE")
    public static let downgrade = Subtype(rawValue: "DOWNGRADE")
    public static let upgrade = Subtype(rawValue: "UPGRADE")
    public static let autoRenewEnabled = Subtype(rawValue: "AUTO_RENEW_ENABLED")
    public static let autoRenewDisabled = Subtype(rawValue: "AUTO_RENEW_DISABLED")
    public static let voluntary = Subtype(rawValue: "VOLUNTARY")
    public static let billingRetry = Subtype(rawValue: "BILLING_RETRY")
    public static let priceIncrease = Subtype(rawValue: "PRICE_INCREASE")
    public static let gracePeriod = Subtype(rawValue: "GRACE_PERIOD")
    public static let pending = Subtype(rawValue: "PENDING")
    public static let accepted = Subtype(rawValue: "ACCEPTED")
    public static let billingRecovery = Subtype(rawValue: "BILLING_RECOVERY")
    public static let productNotForSale = Subtype(rawValue: "PRODUCT_NOT_FOR_SALE")
    public static let summary = Subtype(rawValue: "SUMMARY")
    public static let failure = Subtype(rawValue: "FAILURE")
    public static let unreported = Subtype(rawValue: "UNREPORTED")
    /// `EXTERNAL_PURCHASE_TOKEN`: a custom link token is still active (a reminder to report it).
    public static let activeTokenReminder = Subtype(rawValue: "ACTIVE_TOKEN_REMINDER")
    /// `EXTERNAL_PURCHASE_TOKEN`: a custom link token was created.
    public static let created = Subtype(rawValue: "CREATED")

    /// The values this build knows.
    public static let known: [Subtype] = [
        .initialBuy, .resubscribe, .downgrade, .upgrade, .autoRenewEnabled, .autoRenewDisabled, .voluntary, .billingRetry, .priceIncrease, .gracePeriod,
        .pending, .accepted, .billingRecovery, .productNotForSale, .summary, .failure, .unreported,
        .activeTokenReminder, .created,
    ]
}
