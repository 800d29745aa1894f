import Contract
import Foundation

/// An entitlement the customer has now, as `entitlements.list` answers it in `active`.
@RPCObject(title: "ActiveEntitlement") public struct ActiveEntitlementView: Sendable {
    /// The catalog's entitlement name (or a name granted while the catalog declared none).
    public let name: String
    /// Every holding that grants it now.
    public let grantedBy: [EntitlementSource]
    /// The earliest start among them: a subscription's purchaseDate as stored, a purchase's, a grant's startsDate.
    public let since: Date?
    /// The latest end among them; absent when one of them never ends (a non-consumable).
    public let until: Date?
    /// Whether a subscription that grants it is active with auto-renew on.
    public let willRenew: Bool

    init(_ entitlement: ActiveEntitlements.Entitlement, bundleIds: [UUID: String]) {
        name = entitlement.name
        grantedBy = entitlement.grantedBy.map { EntitlementSource($0, bundleIds: bundleIds) }
        since = entitlement.since
        until = entitlement.until
        willRenew = entitlement.willRenew
    }
}

/// A holding that grants an entitlement: a subscription (by originalTransactionId), a purchase (by
/// transactionId) or a grant (by grantId).
@RPCObject(title: "EntitlementSource") public struct EntitlementSource: Sendable {
    @Field(.oneOf(["subscription", "purchase", "grant"])) public let kind: String
    /// A subscription's.
    public let originalTransactionId: String?
    /// A purchase's.
    public let transactionId: String?
    /// A grant's (`grt_…`).
    public let grantId: String?
    /// The product, and its app: a subscription's, a purchase's, a grant of a product's.
    public let productId: String?
    public let bundleId: String?
    /// A subscription on a 12-month commitment plan: where the commitment stands.
    public let commitment: CommitmentStatus?

    init(_ holding: ActiveEntitlements.Holding, bundleIds: [UUID: String]) {
        var (originalTransactionId, transactionId, grantId, commitment): (String?, String?, String?, CommitmentStatus?) = (nil, nil, nil, nil)
        switch holding {
        case .subscription(let state):
            kind = "subscription"
            originalTransactionId = state.subscription.originalTransactionId
            productId = state.subscription.productId
            bundleId = bundleIds[state.subscription.appId]
            commitment = CommitmentStatus(state)
        case .purchase(let purchase):
            kind = "purchase"
            transactionId = purchase.transactionId
            productId = purchase.productId
            bundleId = bundleIds[purchase.appId]
        case .grant(let grant):
            kind = "grant"
            grantId = Grant.displayId(grant.id)
            productId = grant.productId
            bundleId = grant.appId.flatMap { bundleIds[$0] }
        }
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.grantId = grantId
        self.commitment = commitment
    }
}

/// `entitlements.check`: whether a customer has one entitlement now.
@RPCObject(title: "EntitlementCheck") public struct EntitlementCheck: Sendable {
    public let customerId: String
    public let entitlement: String
    public let active: Bool
    /// When the access ends unless renewed; absent when it never ends, or when not active.
    public let until: Date?
    /// Whether a subscription that grants it is active with auto-renew on.
    public let willRenew: Bool

    init(customerId: String, entitlement name: String, _ found: ActiveEntitlements.Entitlement?) {
        self.customerId = customerId
        entitlement = name
        active = found != nil
        until = found?.until
        willRenew = found?.willRenew ?? false
    }
}
