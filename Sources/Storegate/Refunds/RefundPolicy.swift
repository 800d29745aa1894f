import AppStoreServer
import Contract
import Foundation

/// How Storegate answers an app's `CONSUMPTION_REQUEST`s, set by the tenant per app (`refunds.setPolicy`).
/// Reported facts (`refunds.reportConsumption`) are sent as soon as they exist; the policy decides what
/// happens when none were reported.
@RPCObject(title: "RefundPolicy") public struct RefundPolicy: Codable, Sendable, Equatable {
    public var consumptionApi: ConsumptionAPI = .v2
    /// Without reported facts, answer this many minutes before the 12-hour deadline from what Storegate
    /// knows; absent: never answer without facts.
    @Field(.range(10...690)) public var sendMinutesBeforeDeadline: Int? = 60
    /// Whether the app's customers consented (in its terms) to sharing consumption data. Without consent
    /// nothing is sent.
    public var customerConsented: Bool = false
    public var deliveryStatus: DeliveryStatus = .delivered
    public var sampleContentProvided: Bool = false
    /// Absent for no preference.
    public var refundPreference: RefundPreference?
    /// Prefer `DECLINE` when the customer already had at least this many refunds.
    @Field(.minimum(1)) public var declineAfterRefunds: Int?

    public init() {}

    /// A policy with the defaults for what is not given (v2, 60 minutes, no consent, DELIVERED, no sample, no preference).
    public init(
        consumptionApi: ConsumptionAPI?, sendMinutesBeforeDeadline: Int?, customerConsented: Bool?, deliveryStatus: DeliveryStatus?,
        sampleContentProvided: Bool?, refundPreference: RefundPreference?, declineAfterRefunds: Int?
    ) {
        self.consumptionApi = consumptionApi ?? self.consumptionApi
        self.sendMinutesBeforeDeadline = sendMinutesBeforeDeadline ?? self.sendMinutesBeforeDeadline
        self.customerConsented = customerConsented ?? self.customerConsented
        self.deliveryStatus = deliveryStatus ?? self.deliveryStatus
        self.sampleContentProvided = sampleContentProvided ?? self.sampleContentProvided
        self.refundPreference = refundPreference
        self.declineAfterRefunds = declineAfterRefunds
    }

    func validated() throws -> RefundPolicy {
        if let minutes = sendMinutesBeforeDeadline, !(10...690).contains(minutes) {
            throw StoregateError.invalid(field: "sendMinutesBeforeDeadline", reason: "must be 10 to 690 (the deadline is 12 hours after Apple's request)")
        }
        try Validate.known(deliveryStatus, field: "deliveryStatus")
        if let refundPreference { try Validate.known(refundPreference, field: "refundPreference") }
        if let count = declineAfterRefunds, count < 1 { throw StoregateError.invalid(field: "declineAfterRefunds", reason: "must be at least 1") }
        return self
    }
}

/// What the tenant reports about a transaction for Apple's refund decision (`refunds.reportConsumption`).
public struct ConsumptionFacts: Codable, Sendable, Equatable {
    public var customerConsented: Bool
    public var deliveryStatus: DeliveryStatus
    public var sampleContentProvided: Bool
    /// Milliunits: 0…100000 (50% = 50000).
    public var consumptionPercentage: Int32?
    public var refundPreference: RefundPreference?
    // The deprecated v1 API's fields (Apple's integer codes), sent only to apps configured for v1.
    public var playTime: Int32?
    public var accountTenure: Int32?
    public var lifetimeDollarsPurchased: Int32?
    public var lifetimeDollarsRefunded: Int32?
    public var userStatus: Int32?
    public var platform: Int32?

    public init(
        customerConsented: Bool, deliveryStatus: DeliveryStatus, sampleContentProvided: Bool, consumptionPercentage: Int32? = nil,
        refundPreference: RefundPreference? = nil,
        playTime: Int32? = nil, accountTenure: Int32? = nil, lifetimeDollarsPurchased: Int32? = nil, lifetimeDollarsRefunded: Int32? = nil,
        userStatus: Int32? = nil, platform: Int32? = nil
    ) {
        self.customerConsented = customerConsented
        self.deliveryStatus = deliveryStatus
        self.sampleContentProvided = sampleContentProvided
        self.consumptionPercentage = consumptionPercentage
        self.refundPreference = refundPreference
        self.playTime = playTime
        self.accountTenure = accountTenure
        self.lifetimeDollarsPurchased = lifetimeDollarsPurchased
        self.lifetimeDollarsRefunded = lifetimeDollarsRefunded
        self.userStatus = userStatus
        self.platform = platform
    }

    /// Checks the facts against Apple's rules for a transaction of `productType`.
    func validated(productType: ProductType) throws -> ConsumptionFacts {
        try Validate.known(deliveryStatus, field: "deliveryStatus")
        if let percentage = consumptionPercentage, !(0...100_000).contains(percentage) {
            throw StoregateError.invalid(field: "consumptionPercentage", reason: "must be 0 to 100000 (milliunits: 50% is 50000)")
        }
        if let preference = refundPreference {
            try Validate.known(preference, field: "refundPreference")
            if preference == .grantProrated, productType != .autoRenewableSubscription, consumptionPercentage == nil {
                throw StoregateError.invalid(
                    field: "consumptionPercentage", reason: "is required with GRANT_PRORATED for a purchase that is not a subscription")
            }
        }
        for (field, value, range) in [
            ("playTime", playTime, 0...7), ("accountTenure", accountTenure, 0...7), ("lifetimeDollarsPurchased", lifetimeDollarsPurchased, 0...7),
            ("lifetimeDollarsRefunded", lifetimeDollarsRefunded, 0...7), ("userStatus", userStatus, 0...4), ("platform", platform, 0...2),
        ] as [(String, Int32?, ClosedRange<Int32>)] {
            if let value, !range.contains(value) {
                throw StoregateError.invalid(field: field, reason: "must be \(range.lowerBound) to \(range.upperBound) (Apple's v1 code)")
            }
        }
        return self
    }

    /// The Send Consumption Information (v2) body.
    var v2: ConsumptionRequest {
        ConsumptionRequest(
            customerConsented: customerConsented, consumptionPercentage: consumptionPercentage, deliveryStatus: deliveryStatus,
            refundPreference: refundPreference, sampleContentProvided: sampleContentProvided)
    }

    /// The deprecated Send Consumption Data (v1) body, its codes mapped from the v2 facts where v1 ones are missing.
    var v1: ConsumptionRequestV1 {
        let consumption: Int32? = consumptionPercentage.map { $0 == 0 ? 1 : $0 >= 100_000 ? 3 : 2 }
        let delivery: Int32 =
            switch deliveryStatus {
            case .delivered: 0
            case .undeliveredQualityIssue: 1
            case .undeliveredWrongItem: 2
            case .undeliveredServerOutage: 3
            default: 5
            }
        let preference: Int32 =
            switch refundPreference {
            case .grantFull?, .grantProrated?: 1
            case .decline?: 2
            default: 3
            }
        return ConsumptionRequestV1(
            customerConsented: customerConsented, consumptionStatus: ConsumptionStatus(rawValue: consumption ?? 0), platform: Platform(rawValue: platform ?? 1),
            sampleContentProvided: sampleContentProvided, deliveryStatus: DeliveryStatusV1(rawValue: delivery),
            accountTenure: AccountTenure(rawValue: accountTenure ?? 0),
            playTime: PlayTime(rawValue: playTime ?? 0), lifetimeDollarsRefunded: LifetimeDollarsRefunded(rawValue: lifetimeDollarsRefunded ?? 0),
            lifetimeDollarsPurchased: LifetimeDollarsPurchased(rawValue: lifetimeDollarsPurchased ?? 0), userStatus: UserStatus(rawValue: userStatus ?? 0),
            refundPreference: RefundPreferenceV1(rawValue: preference))
    }
}
