import Crypto
import Foundation
import PostgresNIO
import StoregatePostgres
import Synchronization

/// The tenant behind an authenticated request.
public struct Caller: Sendable {
    public let tenant: TenantRecord
    public let apiKeyPrefix: String
    public var actor: Actor { Actor("apikey:" + apiKeyPrefix) }
}

/// A newly issued key: `secret` is the whole key, shown once and never stored.
public struct IssuedAPIKey: Sendable {
    public let record: APIKeyRecord
    public let secret: String
}

/// Tenant API keys (`sg_<10 chars>_<40 chars>`): issued, listed, revoked, and resolved to a tenant on
/// every request. Resolutions are cached for `cacheTTL`, so a revocation or suspension takes effect
/// within that time.
public final class APIKeyService: Sendable {
    let database: Database
    let repositories: Repositories
    let cacheTTL: Duration
    let cacheCapacity = 10_000
    private let cache = Mutex([Data: (caller: Caller, expires: ContinuousClock.Instant)]())

    init(database: Database, repositories: Repositories, cacheTTL: Duration) {
        self.database = database
        self.repositories = repositories
        self.cacheTTL = cacheTTL
    }

    public func issue(tenantId: UUID, label: String, actor: Actor) async throws -> IssuedAPIKey {
        let label = try Validate.text(label, field: "label", max: 100)
        return try await database.transaction { conn in try await issue(tenantId: tenantId, label: label, actor: actor, on: conn) }
    }

    func issue(tenantId: UUID, label: String, actor: Actor, on conn: PostgresConnection) async throws -> IssuedAPIKey {
        let prefix = "sg_" + Secret.base32(10)
        let secret = prefix + "_" + Secret.base32(40)
        let id = UUID()
        try await repositories.apiKeys.insert(id: id, tenantId: tenantId, prefix: prefix, secretHash: Self.hash(secret), label: label, on: conn)
        try await repositories.audit.record(actor: actor.description, tenantId: tenantId, action: "apikey.issue", detail: ["prefix": prefix, "label": label], on: conn)
        let record = APIKeyRecord(id: id, tenantId: tenantId, prefix: prefix, label: label, createdAt: Date(), lastUsedAt: nil, revokedAt: nil)
        return IssuedAPIKey(record: record, secret: secret)
    }

    public func list(tenantId: UUID) async throws -> [APIKeyRecord] {
        try await database.withConnection { try await repositories.apiKeys.list(tenantId: tenantId, on: $0) }
    }

    public func revoke(tenantId: UUID, prefix: String, actor: Actor) async throws {
        try await database.transaction { conn in
            guard try await repositories.apiKeys.revoke(tenantId: tenantId, prefix: prefix, on: conn) else { throw StoregateError.notFound(field: "prefix") }
            try await repositories.audit.record(actor: actor.description, tenantId: tenantId, action: "apikey.revoke", detail: ["prefix": prefix], on: conn)
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
        let now = ContinuousClock.now
        if let hit = cache.withLock({ $0[hash] }), hit.expires > now {
            return try Self.admit(hit.caller)
        }
        let prefix = "sg_" + parts[1]
        let caller = try await database.withConnection { conn -> Caller in
            guard let found = try await repositories.apiKeys.find(prefix: prefix, on: conn), Self.constantTimeEqual(found.secretHash, hash) else {
                throw StoregateError.unauthenticated("the API key is not known")
            }
            guard found.key.revokedAt == nil else { throw StoregateError.unauthenticated("the API key has been revoked") }
            guard let tenant = try await repositories.tenants.find(id: found.key.tenantId, on: conn) else {
                throw StoregateError.unauthenticated("the API key is not known")
            }
            try await repositories.apiKeys.touch(id: found.key.id, on: conn)
            return Caller(tenant: tenant, apiKeyPrefix: prefix)
        }
        cache.withLock { cache in
            if cache.count >= cacheCapacity { cache = cache.filter { $0.value.expires > now } }
            if cache.count >= cacheCapacity { cache.removeAll() }
            cache[hash] = (caller, now + cacheTTL)
        }
        return try Self.admit(caller)
    }

    private static func admit(_ caller: Caller) throws -> Caller {
        guard caller.tenant.status == .active else { throw StoregateError.tenantSuspended(slug: caller.tenant.slug) }
        return caller
    }

    static func hash(_ key: String) -> Data { Data(SHA256.hash(data: Data(key.utf8))) }

    static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
