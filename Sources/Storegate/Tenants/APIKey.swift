import Foundation

/// A tenant API key as stored: the visible prefix, never the secret (kept only as a hash).
public struct APIKey: Sendable, Equatable {
    public let id: UUID
    public let tenantId: UUID
    /// The visible part of the key, such as `sg_4f2k9x7q`.
    public let prefix: String
    public let label: String
    public let createdAt: Date
    /// When the key was last used, to within `lastUseResolution`: each process marks it, behind the request
    /// (`LastUseMarks`), when it loads the key into its cache and the stored time is older than that.
    public let lastUsedAt: Date?
    public let revokedAt: Date?

    /// How stale `lastUsedAt` may be, in seconds.
    public static let lastUseResolution: TimeInterval = 3600

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
