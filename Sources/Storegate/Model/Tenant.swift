import Foundation

/// An app developer using Storegate. Each tenant's data lives apart from every other tenant's.
public struct Tenant: Sendable, Equatable {
    public enum Status: String, Sendable, Codable, CaseIterable {
        case active, suspended
    }

    public let id: UUID
    public let slug: String
    public var name: String
    /// Where the tenant's own data is stored: a name the server generated, never taken from input.
    public let storageName: String
    public var status: Status
    public let schemaVersion: Int
    public let createdAt: Date
    /// How Storegate reconciles this tenant's data with Apple, where its manifest says.
    public var reconciliation: Reconciliation

    /// A tenant's own reconciliation settings (its manifest's `reconciliation`); nil is the server's.
    public struct Reconciliation: Sendable, Equatable {
        /// How often each app's notification history is swept, in minutes; 0: never.
        public var sweepMinutes: Int?
        /// How long after a subscription's expiry with no renewal heard of Apple is asked, in minutes.
        public var renewalCheckMinutes: Int?

        public init(sweepMinutes: Int? = nil, renewalCheckMinutes: Int? = nil) {
            self.sweepMinutes = sweepMinutes
            self.renewalCheckMinutes = renewalCheckMinutes
        }
    }

    public init(
        id: UUID, slug: String, name: String, storageName: String, status: Status, schemaVersion: Int, createdAt: Date,
        reconciliation: Reconciliation = Reconciliation()
    ) {
        self.id = id
        self.slug = slug
        self.name = name
        self.storageName = storageName
        self.status = status
        self.schemaVersion = schemaVersion
        self.createdAt = createdAt
        self.reconciliation = reconciliation
    }
}

/// A tenant API key as stored: the visible prefix, never the secret (kept only as a hash).
public struct APIKey: Sendable, Equatable {
    public let id: UUID
    public let tenantId: UUID
    /// The visible part of the key, such as `sg_4f2k9x7q`.
    public let prefix: String
    public let label: String
    public let createdAt: Date
    /// When the key was last used, to within `lastUseResolution`: each process writes it when it loads the
    /// key into its cache and the stored time is older than that, so that a cache miss is a read only.
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

/// One line of the append-only audit log. Details never hold secrets.
public struct AuditEntry: Sendable, Codable, Equatable {
    public let at: Date
    public let actor: String
    public let action: String
    /// A JSON object.
    public let detail: String

    public init(at: Date, actor: String, action: String, detail: String) {
        self.at = at
        self.actor = actor
        self.action = action
        self.detail = detail
    }
}

/// An audit entry to append; `detail` is a JSON object.
public struct NewAuditEntry: Sendable {
    public let actor: String
    public let tenantId: UUID?
    public let action: String
    public let detail: String

    public init(actor: String, tenantId: UUID?, action: String, detail: String) {
        self.actor = actor
        self.tenantId = tenantId
        self.action = action
        self.detail = detail
    }

    /// An entry whose detail is a flat object of strings.
    public init(actor: Actor, tenantId: UUID?, action: String, detail: [String: String] = [:]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        self.init(actor: actor.description, tenantId: tenantId, action: action, detail: String(decoding: try encoder.encode(detail), as: UTF8.self))
    }
}

/// Who did something, for the audit log: `cli:<user>` or `apikey:<prefix>`.
public struct Actor: Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
    /// The CLI's actor: the effective user running it (not `$USER`, which may be unset or anything).
    public static var cli: Actor { Actor("cli:" + NSUserName()) }
}
