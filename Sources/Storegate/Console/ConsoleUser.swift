import Foundation

/// A person of a tenant who uses the support console. Never an API key: each signs in as themselves, and
/// what they do is audited with their email.
public struct ConsoleUser: Sendable, Equatable {
    public enum Role: String, Sendable, CaseIterable {
        /// Reads customers, the overview and the timeline.
        case viewer
        /// Also acts for a customer: extends a renewal date, grants and revokes, syncs from Apple, answers a
        /// consumption request.
        case support
        /// Also sees the tenant's people and audit log, and erases a customer.
        case admin

        public var mayAct: Bool { self != .viewer }
        public var mayManagePeople: Bool { self == .admin }
        public var mayReadAudit: Bool { self == .admin }
        public var mayErase: Bool { self == .admin }
    }

    public let id: UUID
    public let tenantId: UUID
    /// Lowercased.
    public let email: String
    public let role: Role
    public let hasPassword: Bool
    public let createdAt: Date
    public let lastSignInAt: Date?

    public init(id: UUID, tenantId: UUID, email: String, role: Role, hasPassword: Bool, createdAt: Date, lastSignInAt: Date?) {
        self.id = id
        self.tenantId = tenantId
        self.email = email
        self.role = role
        self.hasPassword = hasPassword
        self.createdAt = createdAt
        self.lastSignInAt = lastSignInAt
    }

    /// Who did it, in the audit log.
    public var actor: Actor { Actor("console:" + email) }
}

/// A signed-in person: their tenant, and the token every form they post must carry.
public struct ConsoleSession: Sendable {
    public let user: ConsoleUser
    public let tenant: Tenant
    public let csrfToken: String
    public let expiresAt: Date
}
