import Crypto
import Foundation
import Logging

/// The tenant behind an authenticated request.
public struct Caller: Sendable {
    public let tenant: Tenant
    public let apiKeyPrefix: String
    /// The tenant's id as logs write it, made once with the cached caller rather than on every request.
    public let tenantId: String
    public var actor: Actor { Actor("apikey:" + apiKeyPrefix) }

    init(tenant: Tenant, apiKeyPrefix: String) {
        self.tenant = tenant
        self.apiKeyPrefix = apiKeyPrefix
        self.tenantId = tenant.id.uuidString.lowercased()
    }
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
    private let callers: ExpiringCache<SHA256Digest, Caller>
    private let lastUses: LastUseMarks

    init(persistence: any Persistence, cacheTTL: Duration, coherence: CacheCoherence, logger: Logger) {
        self.persistence = persistence
        self.callers = ExpiringCache(ttl: cacheTTL, coherence: coherence) { _, caller in caller.tenant.id }
        self.lastUses = LastUseMarks(logger: logger) { ids in
            try await persistence.control(.read) { unit in try await unit.apiKeys.touch(ids: ids) }
        }
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
        guard Self.isWellFormed(presented) else { throw StoregateError.unauthenticated("the API key is malformed") }
        let digest = Self.digest(presented)
        let caller = try await callers.value(
            for: digest,
            load: {
                let prefix = String(decoding: presented.utf8.prefix(13), as: UTF8.self)
                let hash = Data(digest)
                return try await persistence.control(.read) { unit -> Caller in
                    guard let found = try await unit.apiKeys.resolve(prefix: prefix), Self.constantTimeEqual(found.secretHash, hash) else {
                        throw StoregateError.unauthenticated("the API key is not known")
                    }
                    guard found.key.revokedAt == nil else { throw StoregateError.unauthenticated("the API key has been revoked") }
                    if found.key.lastUsedAt.map({ Date().timeIntervalSince($0) >= APIKey.lastUseResolution }) ?? true {
                        lastUses.mark(found.key.id)
                    }
                    return Caller(tenant: found.tenant, apiKeyPrefix: prefix)
                }
            })
        return try Self.unlessSuspended(caller)
    }

    /// Returns once the last uses marked so far are written: for tests.
    public func lastUsesSettled() async { await lastUses.settled() }

    private static func unlessSuspended(_ caller: Caller) throws -> Caller {
        guard caller.tenant.status == .active else { throw StoregateError.tenantSuspended(slug: caller.tenant.slug) }
        return caller
    }

    /// `sg_<10 chars>_<40 chars>`: 54 bytes, an underscore after the 2nd and the 13th and nowhere else.
    static func isWellFormed(_ presented: String) -> Bool {
        var presented = presented
        return presented.withUTF8 { bytes in
            guard bytes.count == 54, bytes[0] == UInt8(ascii: "s"), bytes[1] == UInt8(ascii: "g") else { return false }
            for (index, byte) in bytes.enumerated() where (byte == UInt8(ascii: "_")) != (index == 2 || index == 13) { return false }
            return true
        }
    }

    static func hash(_ key: String) -> Data { Data(digest(key)) }

    static func digest(_ key: String) -> SHA256Digest {
        var key = key
        return key.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
    }

    static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
