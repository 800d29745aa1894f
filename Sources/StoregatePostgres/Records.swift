import Foundation

public enum TenantStatus: String, Sendable, Codable {
    case active, suspended
}

public struct TenantRecord: Sendable, Equatable {
    public let id: UUID
    public let slug: String
    public var name: String
    public let schema: TenantSchema
    public var status: TenantStatus
    public let schemaVersion: Int
    public let createdAt: Date
}

public struct APIKeyRecord: Sendable, Equatable {
    public let id: UUID
    public let tenantId: UUID
    /// The visible part of the key, such as `sg_4f2k9x7q`; the secret is stored only as a hash.
    public let prefix: String
    public let label: String
    public let createdAt: Date
    public let lastUsedAt: Date?
    public let revokedAt: Date?

    public init(id: UUID, tenantId: UUID, prefix: String, label: String, createdAt: Date, lastUsedAt: Date?, revokedAt: Date?) {
        self.id = id
        self.tenantId = tenantId
        self.prefix = prefix
        self.label = label
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }
}

public struct AppRecord: Sendable, Equatable {
    public let id: UUID
    public let tenantId: UUID
    public let bundleId: String
    public let appAppleId: Int64?
    /// Apple's environment names: `Production`, `Sandbox`.
    public let environments: [String]
    public let createdAt: Date

    public init(id: UUID, tenantId: UUID, bundleId: String, appAppleId: Int64?, environments: [String], createdAt: Date) {
        self.id = id
        self.tenantId = tenantId
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environments = environments
        self.createdAt = createdAt
    }
}

public struct AppKeyRecord: Sendable, Equatable {
    public let id: UUID
    public let tenantId: UUID
    public let appId: UUID
    public let kind: String
    public let keyId: String
    public let issuerId: UUID
    /// The P-256 public key, x9.63.
    public let publicKey: Data
    public let createdAt: Date

    public init(id: UUID, tenantId: UUID, appId: UUID, kind: String, keyId: String, issuerId: UUID, publicKey: Data, createdAt: Date) {
        self.id = id
        self.tenantId = tenantId
        self.appId = appId
        self.kind = kind
        self.keyId = keyId
        self.issuerId = issuerId
        self.publicKey = publicKey
        self.createdAt = createdAt
    }
}

public struct WebhookRecord: Sendable, Equatable {
    public let token: String
    public let tenantId: UUID
    public let appId: UUID
    public let environment: String

    public init(token: String, tenantId: UUID, appId: UUID, environment: String) {
        self.token = token
        self.tenantId = tenantId
        self.appId = appId
        self.environment = environment
    }
}
