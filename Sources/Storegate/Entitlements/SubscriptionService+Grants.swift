import Contract
import Foundation

/// A grant as `entitlements.list`, `entitlements.grant` and `entitlements.revokeGrant` answer it.
@RPCObject(title: "Grant") public struct GrantView: Sendable {
    /// `grt_` and 26 base32 characters.
    public let grantId: String
    /// For a grant of a product: the product's app and identifier.
    public let bundleId: String?
    public let productId: String?
    /// For a grant of one of the tenant's own entitlements: its name.
    public let entitlement: String?
    public let startsDate: Date
    public let expiresDate: Date
    public let reason: String
    /// Who gave it: an API key, a console user, the CLI.
    public let grantedBy: String
    public let revokedDate: Date?
    public let revokedBy: String?
    public let revokeReason: String?

    init(_ g: Grant, bundleId: String?) {
        grantId = Grant.displayId(g.id)
        self.bundleId = bundleId
        productId = g.productId
        entitlement = g.entitlement
        startsDate = g.startsDate
        expiresDate = g.expiresDate
        reason = g.reason
        grantedBy = g.grantedBy
        revokedDate = g.revokedDate
        revokedBy = g.revokedBy
        revokeReason = g.revokeReason
    }
}

extension Grant {
    static func displayId(_ id: UUID) -> String { PrefixedID.encode("grt_", id) }
}

extension Rule {
    /// One of the tenant's own entitlement names, such as `premium`.
    public static let entitlementName = Rule.characters("A-Za-z0-9._:-", count: 1...100).described("One of the tenant's own entitlement names.")
    /// A grant's id.
    public static let grantId = Rule.characters("a-z2-7", count: 26...26, prefix: "grt_").described("The grant's id (`grt_…`).")
    /// How long a grant lasts, in days.
    public static let grantDays = Rule.range(1...Int64(SubscriptionService.longestGrantDays))
}

/// Compensation: access support gives a customer for a while, counted in `entitlements.list` until it
/// expires or is revoked, evented and audited with who did it.
extension SubscriptionService {
    /// The longest a grant may last: a year (a typo of 3650 days is refused, not given).
    public static let longestGrantDays = 365

    /// Gives the customer a product of an app (`bundleId`, `productId`) or one of the tenant's entitlements
    /// (`entitlement`) from now for `days` or until `expiresDate`. Once the tenant's catalog declares an
    /// entitlement, `entitlement` must be one it declares (refused naming `entitlement`); with no catalog, or
    /// none declared in it, any name is the tenant's own and is given as it is.
    public func grant(
        tenant: Tenant, customerId: String, bundleId: String?, productId: String?, entitlement: String?, days: Int?, expiresDate: Date?,
        reason: String, actor: Actor, now: Date = Date()
    ) async throws -> GrantView {
        let customerId = try Validate.customerId(customerId)
        let reason = try Validate.text(reason, field: "reason", max: 500)
        let longest = now.addingTimeInterval(Double(Self.longestGrantDays) * 86_400)
        let expires: Date
        switch (days, expiresDate) {
        case (let days?, nil):
            guard (1...Self.longestGrantDays).contains(days) else {
                throw StoregateError.invalid(field: "days", reason: "must be 1 to \(Self.longestGrantDays)")
            }
            expires = now.addingTimeInterval(Double(days) * 86_400)
        case (nil, let date?):
            guard date > now, date <= longest else {
                throw StoregateError.invalid(field: "expiresDate", reason: "must be in the future, at most \(Self.longestGrantDays) days from now")
            }
            expires = date
        default:
            throw StoregateError.invalid(field: "days", reason: "give exactly one of days and expiresDate")
        }
        let target: Grant.Target
        var app: App?
        switch (productId, entitlement) {
        case (let productId?, nil):
            guard let bundleId else { throw StoregateError.invalid(field: "bundleId", reason: "is required with productId") }
            let found = try await persistence.app(tenant, bundleId: bundleId)
            app = found
            target = .product(appId: found.id, productId: try Validate.storeIdentifier(productId, field: "productId"))
        case (nil, let name?):
            if bundleId != nil { throw StoregateError.invalid(field: "bundleId", reason: "is for a product; an entitlement is the tenant's") }
            let name = try Validate.rule(.entitlementName, name, field: "entitlement")
            guard try await catalog.cached(tenant: tenant).accepts(entitlement: name) else {
                throw StoregateError.invalid(field: "entitlement", reason: "is not an entitlement of the catalog")
            }
            target = .entitlement(name)
        default:
            throw StoregateError.invalid(field: "productId", reason: "give exactly one of productId and entitlement")
        }
        let grant = try await persistence.inTenant(tenant) { unit in
            guard let customer = try await unit.customers.find(customerId: customerId) else { throw StoregateError.notFound(field: "customerId") }
            let grant = Grant(
                id: UUID(), customer: customer.id, target: target, startsDate: now, expiresDate: expires, reason: reason, grantedBy: actor.description,
                grantedDate: now)
            try await unit.grants.insert(grant)
            try await unit.audit(
                actor, "entitlement.grant",
                ["customerId": customerId, "grantId": Grant.displayId(grant.id), "expiresDate": ISO8601DateFormatter().string(from: expires), "reason": reason])
            try await unit.events.append([try Events.grant(.entitlementGranted, grant)])
            return grant
        }
        return GrantView(grant, bundleId: app?.bundleId)
    }

    /// Ends a grant now. Revoking one already revoked answers it as it is and changes nothing.
    public func revokeGrant(tenant: Tenant, customerId: String, grantId: String, reason: String?, actor: Actor, now: Date = Date()) async throws -> GrantView {
        let customerId = try Validate.customerId(customerId)
        guard let id = PrefixedID.decode("grt_", grantId) else { throw StoregateError.invalid(field: "grantId", reason: "must be a grt_ id") }
        let reason = try reason.map { try Validate.text($0, field: "reason", max: 500) }
        let grant = try await persistence.inTenant(tenant) { unit in
            guard let customer = try await unit.customers.find(customerId: customerId) else { throw StoregateError.notFound(field: "customerId") }
            guard let (grant, revoked) = try await unit.grants.revoke(id: id, customer: customer.id, by: actor.description, reason: reason, at: now) else {
                throw StoregateError.notFound(field: "grantId")
            }
            if revoked {
                try await unit.audit(actor, "entitlement.revokeGrant", ["customerId": customerId, "grantId": grantId, "reason": reason ?? ""])
                try await unit.events.append([try Events.grant(.entitlementRevoked, grant)])
            }
            return grant
        }
        let bundles = try await directory.bundleIds(tenant: tenant, covering: grant.appId.map { [$0] } ?? [])
        return GrantView(grant, bundleId: grant.appId.flatMap { bundles[$0] })
    }

    /// The customer's grants, newest first, those ended too (for support).
    public func grants(tenant: Tenant, customerId: String) async throws -> [GrantView] {
        let customerId = try Validate.customerId(customerId)
        let grants = try await persistence.inTenant(tenant, .read) { unit in
            guard let customer = try await unit.customers.find(customerId: customerId) else { throw StoregateError.notFound(field: "customerId") }
            return try await unit.grants.list(customer: customer.id, ended: true)
        }
        let bundles = try await directory.bundleIds(tenant: tenant, covering: grants.compactMap(\.appId))
        return grants.map { GrantView($0, bundleId: $0.appId.flatMap { bundles[$0] }) }
    }
}
