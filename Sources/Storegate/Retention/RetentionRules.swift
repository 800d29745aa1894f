import AppStoreServer
import Contract
import Foundation

/// One of an app's rules for answering Apple's Get Retention Message requests (`retention.rules.set`, the
/// manifest's `retentionRules`). The rules are tried in order; the first whose conditions all hold gives the
/// answer. When none holds, Storegate answers nothing and Apple shows the default message.
@RPCObject(title: "RetentionRule") public struct RetentionRule: Codable, Sendable, Equatable {
    /// Your name for the rule, reported in `retention.answered`.
    @Field(.text(max: 100)) public var name: String
    /// Conditions that must all hold; absent: the rule always holds.
    public var when: RetentionConditions?
    /// What to answer: exactly one of message, alternateProduct and promotionalOffer.
    public var answer: RetentionAnswer

    public init(name: String, when: RetentionConditions? = nil, answer: RetentionAnswer) {
        self.name = name
        self.when = when
        self.answer = answer
    }

    /// At most this many rules per app.
    public static let maxCount = 50
}

/// What must hold of the request and of the subscription for a rule to answer. Each condition given must
/// hold; one not given holds always.
@RPCObject(title: "RetentionConditions") public struct RetentionConditions: Codable, Sendable, Equatable {
    /// The subscription's product is one of these.
    @Field(.storeIdentifier) public var productIds: [String]?
    /// The customer's locale is one of these: `en-US` for that region, `en` for every region of the language.
    @Field(.retentionLocale) public var locales: [String]?
    /// At least this many days since the subscription was first bought.
    @Field(.minimum(0)) public var minTenureDays: Int?
    /// At most this many days since the subscription was first bought.
    @Field(.minimum(0)) public var maxTenureDays: Int?
    /// The subscription is in billing retry or its grace period (true), or is not (false).
    public var billingRetry: Bool?
    /// A promotional offer renewed the subscription or is accepted for its next renewal (true), or neither (false).
    public var offerRedeemed: Bool?
    /// A retention offer (App Store Connect's, offerType 5) renewed the subscription or is accepted for its
    /// next renewal (true), or neither (false): `false` keeps a customer who just took one from another offer.
    public var retentionOfferRedeemed: Bool?
    /// The subscription's billing plan: MONTHLY (a 12-month commitment) or BILLED_UPFRONT.
    @Field(.billingPlanType) public var billingPlanType: String?
    /// The subscription is in a 12-month commitment that renews when it ends (true), or in one the customer
    /// cancelled, which ends after its last month (false). A standard subscription holds neither.
    public var commitmentRenews: Bool?
    /// At most this many months of the commitment are left to bill after the current one (0: its last month).
    @Field(.minimum(0)) public var maxCommitmentMonthsLeft: Int?
    /// The customer (or, when no customer is linked, the subscription) was refunded in this app (true), or never was (false).
    public var refunded: Bool?
    /// Apple asked for consumption information about a purchase of the customer (or subscription) in this
    /// app, because a refund was requested (true), or never did (false).
    public var consumptionRequested: Bool?

    public init(
        productIds: [String]? = nil, locales: [String]? = nil, minTenureDays: Int? = nil, maxTenureDays: Int? = nil, billingRetry: Bool? = nil,
        offerRedeemed: Bool? = nil, refunded: Bool? = nil, consumptionRequested: Bool? = nil, retentionOfferRedeemed: Bool? = nil,
        billingPlanType: String? = nil, commitmentRenews: Bool? = nil, maxCommitmentMonthsLeft: Int? = nil
    ) {
        self.productIds = productIds
        self.locales = locales
        self.minTenureDays = minTenureDays
        self.maxTenureDays = maxTenureDays
        self.billingRetry = billingRetry
        self.offerRedeemed = offerRedeemed
        self.refunded = refunded
        self.consumptionRequested = consumptionRequested
        self.retentionOfferRedeemed = retentionOfferRedeemed
        self.billingPlanType = billingPlanType
        self.commitmentRenews = commitmentRenews
        self.maxCommitmentMonthsLeft = maxCommitmentMonthsLeft
    }

    /// Whether a condition needs more than the request and the subscription: the lazily read `RetentionFacts`.
    var needsFacts: Bool {
        minTenureDays != nil || maxTenureDays != nil || offerRedeemed != nil || retentionOfferRedeemed != nil || refunded != nil
            || consumptionRequested != nil
    }
}

/// A rule's answer: exactly one of a message, an alternate product and a promotional offer.
@RPCObject(title: "RetentionAnswer") public struct RetentionAnswer: Codable, Sendable, Equatable {
    /// Show this message (uploaded with `retention.messages.upload` and approved by Apple).
    public var message: RetentionMessageAnswer?
    /// Suggest switching to another subscription.
    public var alternateProduct: RetentionAlternateProduct?
    /// Offer a promotional offer, signed by Storegate with the app's key for each answer.
    public var promotionalOffer: RetentionPromotionalOffer?

    public init(message: RetentionMessageAnswer? = nil, alternateProduct: RetentionAlternateProduct? = nil, promotionalOffer: RetentionPromotionalOffer? = nil)
    {
        self.message = message
        self.alternateProduct = alternateProduct
        self.promotionalOffer = promotionalOffer
    }
}

@RPCObject(title: "RetentionMessageAnswer") public struct RetentionMessageAnswer: Codable, Sendable, Equatable {
    @Field(.uuid) public var messageIdentifier: String

    public init(messageIdentifier: String) { self.messageIdentifier = messageIdentifier }
}

@RPCObject(title: "RetentionAlternateProduct") public struct RetentionAlternateProduct: Codable, Sendable, Equatable {
    /// The subscription to suggest.
    @Field(.storeIdentifier) public var productId: String
    /// The message shown with it.
    @Field(.uuid) public var messageIdentifier: String?
    /// For a subscription with a monthly plan: BILLED_UPFRONT or MONTHLY.
    @Field(.billingPlanType) public var billingPlanType: String?

    public init(productId: String, messageIdentifier: String? = nil, billingPlanType: String? = nil) {
        self.productId = productId
        self.messageIdentifier = messageIdentifier
        self.billingPlanType = billingPlanType
    }
}

@RPCObject(title: "RetentionPromotionalOffer") public struct RetentionPromotionalOffer: Codable, Sendable, Equatable {
    /// The offer's identifier in App Store Connect.
    @Field(.storeIdentifier) public var offerIdentifier: String
    /// The subscription the offer is for; absent: the subscription the customer is looking at.
    @Field(.storeIdentifier) public var productId: String?
    /// The message shown with it.
    @Field(.uuid) public var messageIdentifier: String?
    /// V2 (a JWS, the default) or V1 (the legacy signature, with the customer's appAccountToken).
    @Field(.signatureVersion) public var signatureVersion: String?

    public init(offerIdentifier: String, productId: String? = nil, messageIdentifier: String? = nil, signatureVersion: String? = nil) {
        self.offerIdentifier = offerIdentifier
        self.productId = productId
        self.messageIdentifier = messageIdentifier
        self.signatureVersion = signatureVersion
    }

    var isV1: Bool { signatureVersion == "V1" }
}

extension Rule {
    public static let retentionLocale = Rule.characters("A-Za-z0-9-", count: 2...35).described("A locale as Apple writes it: en-US.")
    public static let billingPlanType = Rule.oneOf(BillingPlanType.known.map(\.rawValue))
    public static let signatureVersion = Rule.oneOf(["V2", "V1"])
}

extension [RetentionRule] {
    /// The rules, checked: each field's rule, then exactly one answer per rule, tenure bounds in order, names
    /// unique; the field named as `rules[2].answer`.
    public func validated(field: String = "rules") throws(StoregateError) -> [RetentionRule] {
        guard count <= RetentionRule.maxCount else { throw .invalid(field: field, reason: "must hold at most \(RetentionRule.maxCount) rules") }
        var names = Set<String>()
        for (index, rule) in enumerated() {
            let at = "\(field)[\(index)]"
            if let violation = RetentionRule.violation(rule, rule: Rule()) { throw .invalid(field: at + violation.path, reason: violation.reason) }
            guard names.insert(rule.name).inserted else { throw .invalid(field: at + ".name", reason: "is the name of an earlier rule") }
            let answers = [rule.answer.message != nil, rule.answer.alternateProduct != nil, rule.answer.promotionalOffer != nil].filter { $0 }.count
            guard answers == 1 else { throw .invalid(field: at + ".answer", reason: "must have exactly one of message, alternateProduct, promotionalOffer") }
            if let min = rule.when?.minTenureDays, let max = rule.when?.maxTenureDays, min > max {
                throw .invalid(field: at + ".when.maxTenureDays", reason: "must not be below minTenureDays")
            }
            for (i, locale) in (rule.when?.locales ?? []).enumerated() where RetentionMessagingRules.check(locale: Self.normalized(locale)) != nil {
                throw .invalid(field: at + ".when.locales[\(i)]", reason: "is not a locale such as en-US or en")
            }
        }
        return self
    }

    /// A locale compared: lowercase language, `-` between parts (Apple writes `en-US`; devices may say `en_US`).
    static func normalized(_ locale: String) -> String {
        let parts = locale.replacingOccurrences(of: "_", with: "-").split(separator: "-", omittingEmptySubsequences: false)
        return ([parts.first.map { $0.lowercased() } ?? ""] + parts.dropFirst().map(String.init)).joined(separator: "-")
    }
}
