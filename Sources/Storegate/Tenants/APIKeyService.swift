import Crypto
import Foundation

/// The tenant behind an authenticated request.
public struct Caller: Sendable {
    public let tenant: Tenant
    public let apiKeyPrefix: String
    public var actor: Actor { Actor("apikey:" + apiKeyPrefix) }
}

/// A newly issued key: `secret` is the whole key, shown once and never stored.
public struct IssuedAPIKey: Sendable {
    public let record: APIKey
    public let secret: String
}

/// Tenant API keys (`sg_<10 chars>_<40 chars>`): issued, listed, revoked, and resolved to a tenant on
/// every request. Resolutions are cached; a revocation or suspension takes effect on the key's next use
/// (see `CacheCoherence`), or within `cacheTTL` while changes are not followed.
public final class APIKeyService: Sendable {
    let persistence: any Persistence
    /// Callers by the SHA-256 of their key.
    private let callers: ExpiringCache<Data, Caller>

    init(persistence: any Persistence, cacheTTL: Duration, coherence: CacheCoherence) {
        self.persistence = persistence
        self.callers = ExpiringCache(ttl: cacheTTL, coherence: coherence) { _, caller in caller.tenant.id }
    }

    public func issue(tenant: Tenant, label: String, actor: Actor) async throws -> IssuedAPIKey {
        let label = try Validate.text(label, field: "label", max: 100)
        return try await persistence.inTenant(tenant) { unit in try await Self.issue(label: label, actor: actor, in: unit) }
    }

    static func issue(label: String, actor: Actor, in unit: any TenantUnit) async throws -> IssuedAPIKey {
        let prefix = "sg_" + Secret.base32(10)
        let secret = prefix + "_" + Secret.base32(40)
        let id = UUID()
        try await unit.apiKeys.insert(id: id, prefix: prefix, secretHash: hash(secret), label: label)
        try await unit.audit(actor, "apikey.issue", ["prefix": prefix, "label": label])
        let record = APIKey(id: id, tenantId: unit.tenant.id, prefix: prefix, label: label, createdAt: Date(), lastUsedAt: nil, revokedAt: nil)
        return IssuedAPIKey(record: record, secret: secret)
    }

    public func list(tenant: Tenant) async throws -> [APIKey] {
        try await persistence.inTenant(tenant, .read) { try await $0.apiKeys.list() }
    }

    public func revoke(tenant: Tenant, prefix: String, actor: Actor) async throws {
        try await persistence.inTenant(tenant) { unit in
            guard try await unit.apiKeys.revoke(prefix: prefix) else { throw StoregateError.notFound(field: "prefix") }
            try await unit.audit(actor, "apikey.revoke", ["prefix": prefix])
        }
    }

    /// Resolves a presented key to its tenant. Unknown, malformed and revoked keys are `unauthenticated`;
    /// a suspended tenant's keys are `tenantSuspended`.
    public func authenticate(_ presented: String) async throws -> Caller {
        let parts = presented.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "sg", parts[1].utf8.count == 10, parts[2].utf8.count == 40 else {
            throw StoregateError.unauthenticated("the API key is malformed")
        }
        let hash = Self.hash(presented)
        let prefix = "sg_" + parts[1]
        let caller = try await callers.value(
            for: hash,
            load: {
                try await persistence.control(.read) { unit -> Caller in
                    guard let found = try await unit.apiKeys.find(prefix: prefix), Self.constantTimeEqual(found.secretHash, hash) else {
                        throw StoregateError.unauthenticated("the API key is not known")
                    }
                    guard found.key.revokedAt == nil else { throw StoregateError.unauthenticated("the API key has been revoked") }
                    guard let tenant = try await unit.tenants.find(id: found.key.tenantId) else {
                        throw StoregateError.unauthenticated("the API key is not known")
                    }
                    if found.key.lastUsedAt.map({ Date().timeIntervalSince($0) >= APIKey.lastUseResolution }) ?? true {
                        try await unit.apiKeys.touch(id: found.key.id)
                    }
                    return Caller(tenant: tenant, apiKeyPrefix: prefix)
                }
            })
        return try Self.unlessSuspended(caller)
    }

    private static func unlessSuspended(_ caller: Caller) throws -> Caller {
        guard caller.tenant.status == .active else { throw StoregateError.tenantSuspended(slug: caller.tenant.slug) }
        return caller
    }

    static func hash(_ key: String) -> Data { Data(SHA256.hash(data: Data(key.utf8))) }

    static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
