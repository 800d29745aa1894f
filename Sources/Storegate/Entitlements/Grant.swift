import Foundation

/// Access support gave a customer for a while (compensation): to a product of one app, or to an
/// entitlement the tenant names, from `startsDate` until `expiresDate` unless revoked earlier.
public struct Grant: Sendable, Equatable {
    /// What a grant gives access to.
    public enum Target: Sendable, Equatable {
        case product(appId: UUID, productId: String)
        case entitlement(String)
    }

    public let id: UUID
    public let customer: UUID
    public let target: Target
    public let startsDate: Date
    public let expiresDate: Date
    public let reason: String
    /// Who gave it: the actor of the call (an API key, a console user, the CLI).
    public let grantedBy: String
    public let grantedDate: Date
    public var revokedDate: Date?
    public var revokedBy: String?
    public var revokeReason: String?

    public init(
        id: UUID, customer: UUID, target: Target, startsDate: Date, expiresDate: Date, reason: String, grantedBy: String, grantedDate: Date,
        revokedDate: Date? = nil, revokedBy: String? = nil, revokeReason: String? = nil
    ) {
        self.id = id
        self.customer = customer
        self.target = target
        self.startsDate = startsDate
        self.expiresDate = expiresDate
        self.reason = reason
        self.grantedBy = grantedBy
        self.grantedDate = grantedDate
        self.revokedDate = revokedDate
        self.revokedBy = revokedBy
        self.revokeReason = revokeReason
    }

    // Not inlined: Swift 6.3.1's optimizer crashed (CopyPropagation, "Found outside of lifetime use" on the
    // grant's target) on the async functions that read these, once inlined there, in release builds.
    @inline(never) public var appId: UUID? {
        if case .product(let appId, _) = target { appId } else { nil }
    }

    /// The product, for a grant of one.
    @inline(never) public var productId: String? {
        if case .product(_, let productId) = target { productId } else { nil }
    }

    /// The tenant's entitlement, for a grant of one.
    @inline(never) public var entitlement: String? {
        if case .entitlement(let name) = target { name } else { nil }
    }

    /// Whether it gives access at `now`: started, not expired, not revoked.
    public func grantsAccess(now: Date) -> Bool { revokedDate == nil && startsDate <= now && now < expiresDate }
}
