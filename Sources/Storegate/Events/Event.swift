import AppStoreServer
import Contract
import Foundation

/// Something that happened to a tenant's data, written in the same transaction as the change itself
/// (the tenant's outbox): it exists exactly when its change committed. Each tenant's events are
/// numbered without gaps, in the order their transactions committed, so a backend that reads them
/// after a sequence number misses none (`events.list`).
public struct Event: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable, Codable {
        /// A subscription's status, expiry, auto-renewal or product changed (or it was first seen).
        case subscriptionUpdated = "subscription.updated"
        /// Apple extended a subscription's renewal date at Storegate's request (`subscriptions.extendRenewalDate`).
        case subscriptionRenewalExtended = "subscription.renewalExtended"
        /// A transaction seen for the first time.
        case purchaseCreated = "purchase.created"
        case refundGranted = "refund.granted"
        case refundDeclined = "refund.declined"
        case refundReversed = "refund.reversed"
        /// Apple asks for consumption information before a deadline (`refunds.reportConsumption`).
        case consumptionRequested = "consumption.requested"
        case consumptionSent = "consumption.sent"
        case consumptionNotSent = "consumption.notSent"
        /// An identifier was linked to a customer.
        case accountLinked = "account.linked"
        /// An identifier linked to one customer was moved to another.
        case accountTransferred = "account.transferred"
        /// A customer was erased (`customers.delete`): the event says which erasure, never who.
        case customerDeleted = "customer.deleted"
        /// A notification from Apple, with its signed payload as received.
        case notificationReceived = "notification.received"
        /// Support gave a customer access for a while (`entitlements.grant`).
        case entitlementGranted = "entitlement.granted"
        /// A grant was revoked before it expired (`entitlements.revokeGrant`).
        case entitlementRevoked = "entitlement.revoked"
        /// Storegate answered Apple's Get Retention Message request (the rule that held and its answer), or
        /// answered nothing (why).
        case retentionAnswered = "retention.answered"
        /// The tenant's catalog of products and entitlements was replaced (`catalog.set`).
        case catalogChanged = "catalog.changed"
        /// A customer's set of entitlement names changed with a write to what they hold (a purchase, a
        /// renewal that lapsed, a refund, a grant or its revocation); not by a catalog change, nor by an expiry
        /// alone until the customer's next write.
        case entitlementsChanged = "entitlements.changed"

        // The lifecycle: what happened to a customer's purchase, in the tenant's words, each with the
        // same data (`LifecycleData`) and money on charges and refunds (docs/API.md, "Lifecycle events").
        /// The customer's first purchase of a subscription, at full price.
        case subscriptionStarted = "subscription.started"
        /// A subscription started (or returned) with a free trial.
        case subscriptionTrialStarted = "subscription.trialStarted"
        /// A period with an offer began: an introductory price, a promotional, offer-code, win-back or retention offer.
        case subscriptionOfferStarted = "subscription.offerStarted"
        /// A customer whose subscription had ended bought it again, at full price.
        case subscriptionResubscribed = "subscription.resubscribed"
        case subscriptionRenewed = "subscription.renewed"
        /// The first paid period after a free trial.
        case subscriptionTrialConverted = "subscription.trialConverted"
        /// The customer turned auto-renew off: the subscription ends at its expiry.
        case subscriptionRenewalCancelled = "subscription.renewalCancelled"
        /// The customer turned auto-renew back on.
        case subscriptionRenewalEnabled = "subscription.renewalEnabled"
        /// A renewal charge failed; Apple retries it.
        case subscriptionBillingIssue = "subscription.billingIssue"
        /// A renewal charge failed and the customer keeps access for the billing grace period.
        case subscriptionGracePeriodEntered = "subscription.gracePeriodEntered"
        /// The billing grace period ended without a successful charge.
        case subscriptionGracePeriodEnded = "subscription.gracePeriodEnded"
        /// A failed renewal was charged after all.
        case subscriptionBillingRecovered = "subscription.billingRecovered"
        case subscriptionExpired = "subscription.expired"
        /// The subscription will renew as another product of its group (a downgrade or crossgrade).
        case subscriptionProductChangeScheduled = "subscription.productChangeScheduled"
        /// A scheduled change of product was taken back.
        case subscriptionProductChangeCancelled = "subscription.productChangeCancelled"
        /// The subscription is now another product of its group (an upgrade at once, a downgrade at renewal).
        case subscriptionProductChanged = "subscription.productChanged"
        /// Apple asked the customer to consent to a price increase.
        case subscriptionPriceIncreasePending = "subscription.priceIncreasePending"
        case subscriptionPriceIncreaseConsented = "subscription.priceIncreaseConsented"
        /// The subscription expired because the customer did not consent to a price increase.
        case subscriptionPriceIncreaseRefused = "subscription.priceIncreaseRefused"
        /// Apple moved the renewal date later (a renewal-date extension).
        case subscriptionExtended = "subscription.extended"
        /// A non-consumable or non-renewing subscription bought.
        case purchaseOneTime = "purchase.oneTime"
        case purchaseConsumable = "purchase.consumable"
        /// Apple refunded a purchase (the whole or a share).
        case purchaseRefunded = "purchase.refunded"
        /// Apple reversed a refund: the purchase counts again.
        case purchaseRefundReversed = "purchase.refundReversed"
        /// A family member's access to a shared purchase ended (Family Sharing).
        case purchaseFamilyRevoked = "purchase.familyRevoked"
        /// A purchase was moved to another customer (`accounts.link` with `transfer`).
        case purchaseTransferred = "purchase.transferred"
    }

    /// Shown as `evt_` and 26 base32 characters.
    public let id: UUID
    /// The tenant's own count: 1, 2, 3, … in commit order.
    public let sequence: Int64
    public let type: Kind
    public let createdAt: Date
    public let appId: UUID?
    /// The bundle ID of `appId`.
    public let bundleId: String?
    public let environment: AppStoreEnvironment?
    public let customer: UUID?
    /// The tenant's id of `customer`.
    public let customerId: String?
    /// The event's own fields, as JSON text.
    public let data: String
    /// For `notification.received`: the notification's signed payload, as Apple sent it.
    public let signedPayload: String?

    public init(
        id: UUID, sequence: Int64, type: Kind, createdAt: Date, appId: UUID?, bundleId: String?, environment: AppStoreEnvironment?, customer: UUID?,
        customerId: String?, data: String, signedPayload: String?
    ) {
        self.id = id
        self.sequence = sequence
        self.type = type
        self.createdAt = createdAt
        self.appId = appId
        self.bundleId = bundleId
        self.environment = environment
        self.customer = customer
        self.customerId = customerId
        self.data = data
        self.signedPayload = signedPayload
    }

    /// The id as shown: `evt_` and the UUID's 128 bits in 26 lowercase base32 characters.
    public var displayId: String { PrefixedID.encode("evt_", id) }

    private struct Envelope: Encodable {
        let id: String
        let type: String
        let sequence: Int64
        let createdAt: Date
        let appId: String?
        let bundleId: String?
        let environment: String?
        let customerId: String?
    }

    /// The event as a webhook sends it and `events.list` returns it: `id`, `type`, `sequence`,
    /// `createdAt`, the app, environment and customer when known, and `data` last (for
    /// `notification.received`, with Apple's `signedPayload` in it).
    public func json() throws -> String {
        let envelope = Envelope(
            id: displayId, type: type.rawValue, sequence: sequence, createdAt: createdAt, appId: appId?.uuidString.lowercased(), bundleId: bundleId,
            environment: environment?.rawValue, customerId: customerId)
        var text = String(decoding: try EventData.encoder.encode(envelope), as: UTF8.self)
        text.removeLast()  // the envelope's closing brace: `data` follows
        return text + #","data":"# + (try dataWithPayload()) + "}"
    }

    /// `data`, with `signedPayload` added first for `notification.received`.
    func dataWithPayload() throws -> String {
        guard let signedPayload, data.hasPrefix("{") else { return data }
        let rest = data.dropFirst()
        let value = String(decoding: try EventData.encoder.encode(signedPayload), as: UTF8.self)
        return #"{"signedPayload":"# + value + (rest.hasPrefix("}") ? "" : ",") + rest
    }
}

/// An event to append to the tenant's outbox, in the unit of work that makes its change.
public struct NewEvent: Sendable, Equatable {
    public let id: UUID
    public let type: Event.Kind
    public let appId: UUID?
    public let environment: AppStoreEnvironment?
    public let customer: UUID?
    public let data: String
    /// For `notification.received`: the stored notification whose signed payload the event carries.
    public let notificationUUID: UUID?

    public init(
        _ type: Event.Kind, appId: UUID?, environment: AppStoreEnvironment?, customer: UUID?, data: some Encodable, notificationUUID: UUID? = nil,
        id: UUID = UUID()
    ) throws {
        self.id = id
        self.type = type
        self.appId = appId
        self.environment = environment
        self.customer = customer
        self.data = String(decoding: try EventData.encoder.encode(data), as: UTF8.self)
        self.notificationUUID = notificationUUID
    }
}

enum EventData {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

/// Typed ids (`evt_`, `we_`, `wd_`): a prefix and the UUID's 128 bits in 26 characters of RFC 4648
/// base32, lowercase, without padding.
public enum PrefixedID {
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    public static func encode(_ prefix: String, _ id: UUID) -> String {
        let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
            buffer &= (1 << bits) - 1
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return prefix + String(decoding: out, as: UTF8.self)
    }

    /// The UUID of an id with this prefix; nil when it is not one.
    public static func decode(_ prefix: String, _ text: String) -> UUID? {
        guard text.hasPrefix(prefix) else { return nil }
        let body = Array(text.utf8.dropFirst(prefix.utf8.count))
        guard body.count == 26 else { return nil }
        var bytes: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in body {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | value
            bits += 5
            if bits >= 8 {
                bytes.append(UInt8((buffer >> (bits - 8)) & 0xFF))
                bits -= 8
            }
            buffer &= (1 << bits) - 1
        }
        guard bytes.count == 16, buffer == 0 else { return nil }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13],
                bytes[14], bytes[15]
            ))
    }
}

/// The API shows its cases as the JSON Schema `enum`; any other value is refused.
extension Event.Kind: JSONSchemaType {}
