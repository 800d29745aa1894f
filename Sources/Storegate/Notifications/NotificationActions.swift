import AppStoreServer

/// What Storegate does with each notification type, in one table. Every notification is kept, evented as
/// `notification.received`, and the signed data it carries is verified and stored (a transaction with its
/// renewal info, whose changes make `purchase.created` and `subscription.updated`; an app transaction; an
/// external purchase token; a mass extension's summary: `NotificationProcessor.Effect`). The table says
/// what a type does beyond that. A type Apple adds is one entry here and its test
/// (`NotificationActionTests` fails for a known type without one); until then it is stored as `.store`.
public enum NotificationAction: Sendable, Equatable {
    /// Store what it carries; nothing more.
    case store
    /// Apple decided a refund, or ended a family member's access (`REVOKE`): record the outcome and what to
    /// revoke, evented as `event` (`REVOKE` is no refund, and has none).
    case refundOutcome(event: Event.Kind?)
    /// A customer asked Apple for a refund: open the consumption request (`consumption.requested`) and
    /// schedule its answer before Apple's deadline.
    case consumptionRequest
    /// The customer withdrew consent to share data: the app transaction is stored with the date of it.
    case consentRescinded
    /// `TEST`: carries nothing.
    case nothing

    public init(_ type: NotificationTypeV2) {
        self = Self.byType[type] ?? .store
    }

    static let byType: [NotificationTypeV2: NotificationAction] = [
        .subscribed: .store,
        .didRenew: .store,
        .didChangeRenewalPref: .store,
        .didChangeRenewalStatus: .store,
        .offerRedeemed: .store,
        .didFailToRenew: .store,
        .gracePeriodExpired: .store,
        .expired: .store,
        .priceIncrease: .store,
        .priceChange: .store,
        .renewalExtended: .store,
        .renewalExtension: .store,
        .oneTimeCharge: .store,
        .metadataUpdate: .store,
        .migration: .store,
        .externalPurchaseToken: .store,
        .refund: .refundOutcome(event: .refundGranted),
        .refundDeclined: .refundOutcome(event: .refundDeclined),
        .refundReversed: .refundOutcome(event: .refundReversed),
        .revoke: .refundOutcome(event: nil),
        .consumptionRequest: .consumptionRequest,
        .rescindConsent: .consentRescinded,
        .test: .nothing,
    ]

    /// Whether the table has an entry for `type` (every type this build knows must).
    public static func lists(_ type: NotificationTypeV2) -> Bool { byType[type] != nil }
}
