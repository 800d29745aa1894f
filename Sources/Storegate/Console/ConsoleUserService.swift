import Crypto
import Foundation

/// Why a sign-in was refused. The message never says whether the person exists.
public enum ConsoleSignInRefusal: Error, Equatable {
    /// The tenant, email and password do not match a person (or the link is unknown, used or expired).
    case refused
    /// Too many failed attempts for this person; they may try again after `retryAfter` seconds.
    case tooManyAttempts(retryAfter: Int)
    /// Too many sign-ins are being checked at once: nothing was checked or counted; try again shortly.
    case busy(retryAfter: Int)
}

/// The console's people: added, listed and removed by tenant (the CLI); signed in with a bcrypt-hashed
/// password or a one-time link; their sessions found by the cookie's secret. Secrets (sessions, links) are
/// kept only as SHA-256 hashes; a password only as its bcrypt hash.
public final class ConsoleUserService: Sendable {
    public struct Settings: Sendable {
        /// How long a session lasts from sign-in.
        public var sessionLifetime: TimeInterval = 12 * 3600
        /// How long a one-time sign-in link can be used.
        public var linkLifetime: TimeInterval = 24 * 3600
        /// Failed sign-ins allowed per person within `attemptWindow`.
        public var attempts = 5
        public var attemptWindow: TimeInterval = 15 * 60
        /// How passwords are hashed: bcrypt's cost, and how many hashes run and wait at once.
        public var hashing = PasswordHasher.Settings()
        /// Sign-ins whose attempt is being counted in the database at once, and how many may wait for
        /// that; more are answered `busy` at once. Keeps a storm of sign-ins from taking the database's
        /// connections from everything else.
        public var counting = (concurrent: 4, waiting: 256)

        public init() {}
    }

    let persistence: any Persistence
    public let settings: Settings
    let hasher: PasswordHasher
    let counting: Gate

    init(persistence: any Persistence, settings: Settings = Settings()) {
        self.persistence = persistence
        self.settings = settings
        self.hasher = PasswordHasher(settings.hashing)
        self.counting = Gate(concurrent: settings.counting.concurrent, waiting: settings.counting.waiting)
    }

    /// `password`'s hash, for the CLI's paths (a full hashing queue is a retryable failure there).
    private func hash(_ password: String) async throws -> String {
        do { return try await hasher.hash(try Validate.password(password)) } catch is Gate.Full {
            throw StoregateError.unavailable(reason: "too many passwords are being hashed; try again")
        }
    }

    /// Adds a person to the tenant, with a password (hashed) or none (they sign in with the link this
    /// returns). Refused when the tenant has someone with this email.
    public func add(
        tenant: Tenant, email: String, role: ConsoleUser.Role, password: String?, actor: Actor
    ) async throws -> (
        user: ConsoleUser, link: String
    ) {
        let email = try Validate.email(email)
        var hash: String?
        if let password { hash = try await self.hash(password) }
        let user = ConsoleUser(id: UUID(), tenantId: tenant.id, email: email, role: role, hasPassword: hash != nil, createdAt: Date(), lastSignInAt: nil)
        let link = Secret.token()
        try await persistence.control { unit in
            guard try await unit.console.add(user, passwordHash: hash) else {
                throw StoregateError.conflict(field: "email", reason: "\(email) is already a console user of \(tenant.slug)")
            }
            try await unit.console.addLink(secretHash: Self.hash(link), userId: user.id, expiresAt: Date() + settings.linkLifetime)
            try await unit.inTenant(tenant).audit(actor, "console.user.add", ["email": email, "role": role.rawValue])
        }
        return (user, link)
    }

    public func list(tenant: Tenant) async throws -> [ConsoleUser] {
        try await persistence.control(.read) { try await $0.console.users(tenantId: tenant.id) }
    }

    /// Removes a person; their sessions end at once.
    public func remove(tenant: Tenant, email: String, actor: Actor) async throws {
        let email = try Validate.email(email)
        try await persistence.control { unit in
            guard try await unit.console.remove(tenantId: tenant.id, email: email) else { throw StoregateError.notFound(field: "email", value: email) }
            try await unit.inTenant(tenant).audit(actor, "console.user.remove", ["email": email])
        }
    }

    /// A new one-time sign-in link's secret for a person (a forgotten password, a first sign-in).
    public func issueLink(tenant: Tenant, email: String, actor: Actor) async throws -> String {
        let email = try Validate.email(email)
        let link = Secret.token()
        try await persistence.control { unit in
            guard let found = try await unit.console.user(tenantId: tenant.id, email: email) else {
                throw StoregateError.notFound(field: "email", value: email)
            }
            try await unit.console.addLink(secretHash: Self.hash(link), userId: found.user.id, expiresAt: Date() + settings.linkLifetime)
            try await unit.inTenant(tenant).audit(actor, "console.link.issue", ["email": email])
        }
        return link
    }

    /// Sets a person's password.
    public func setPassword(tenant: Tenant, email: String, password: String, actor: Actor) async throws {
        let email = try Validate.email(email)
        let hash = try await self.hash(password)
        try await persistence.control { unit in
            guard let found = try await unit.console.user(tenantId: tenant.id, email: email) else {
                throw StoregateError.notFound(field: "email", value: email)
            }
            try await unit.console.setPassword(userId: found.user.id, hash: hash)
            try await unit.inTenant(tenant).audit(actor, "console.password.set", ["email": email])
        }
    }

    /// Signs a person in with their password: a new session's secret (for the cookie) and the session.
    /// At most `settings.attempts` failures per person per `attemptWindow`, for people that do not exist too.
    /// The attempt is counted before any hash is checked, in one statement (`ConsoleStore.reserveAttempt`),
    /// so that attempts sent at once cannot all pass the count; a sign-in that succeeds clears the count, one
    /// that cannot be checked now (`busy`) gives its attempt back.
    public func signIn(tenantSlug: String, email: String, password: String) async throws -> (secret: String, session: ConsoleSession) {
        let email = email.trimmingCharacters(in: .whitespaces).lowercased()
        let slug = tenantSlug.trimmingCharacters(in: .whitespaces).lowercased()
        let key = slug + "/" + email
        let at = Date()
        let retryAfter = 5
        // Nothing is counted when the hashes could not be checked anyway.
        guard !hasher.isFull else { throw ConsoleSignInRefusal.busy(retryAfter: retryAfter) }
        let found: (user: ConsoleUser, passwordHash: String?, tenant: Tenant)?
        do {
            found = try await counting.run {
                try await persistence.control { unit -> (user: ConsoleUser, passwordHash: String?, tenant: Tenant)? in
                    let counted = try await unit.console.reserveAttempt(
                        userKey: key, at: at, since: at - settings.attemptWindow, limit: settings.attempts)
                    guard counted else { throw ConsoleSignInRefusal.tooManyAttempts(retryAfter: Int(settings.attemptWindow)) }
                    guard let tenant = try await unit.tenants.find(slug: slug, forUpdate: false), tenant.status == .active,
                        let found = try await unit.console.user(tenantId: tenant.id, email: email)
                    else { return nil }
                    return (found.user, found.passwordHash, tenant)
                }
            }
        } catch is Gate.Full {
            throw ConsoleSignInRefusal.busy(retryAfter: retryAfter)
        }
        let matches: Bool
        do {
            matches = try await hasher.verify(password, hash: found?.passwordHash ?? hasher.decoy) && found?.passwordHash != nil
        } catch is Gate.Full {
            try await persistence.control { try await $0.console.releaseAttempt(userKey: key, at: at) }
            throw ConsoleSignInRefusal.busy(retryAfter: retryAfter)
        }
        guard let found, matches else { throw ConsoleSignInRefusal.refused }
        return try await start(found.user, tenant: found.tenant, how: "password", clearingAttemptsOf: key)
    }

    /// Signs a person in with a one-time link, which cannot be used again.
    public func redeem(link: String) async throws -> (secret: String, session: ConsoleSession) {
        let found = try await persistence.control { unit -> (ConsoleUser, Tenant)? in
            guard let user = try await unit.console.takeLink(secretHash: Self.hash(link)),
                let tenant = try await unit.tenants.find(id: user.tenantId), tenant.status == .active
            else { return nil }
            return (user, tenant)
        }
        guard let (user, tenant) = found else { throw ConsoleSignInRefusal.refused }
        return try await start(user, tenant: tenant, how: "link")
    }

    private func start(
        _ user: ConsoleUser, tenant: Tenant, how: String, clearingAttemptsOf key: String? = nil
    ) async throws -> (secret: String, session: ConsoleSession) {
        let secret = Secret.token()
        let session = ConsoleSession(user: user, tenant: tenant, csrfToken: Secret.token(), expiresAt: Date() + settings.sessionLifetime)
        try await persistence.control { unit in
            if let key { try await unit.console.clearAttempts(userKey: key) }
            try await unit.console.addSession(secretHash: Self.hash(secret), userId: user.id, csrfToken: session.csrfToken, expiresAt: session.expiresAt)
            try await unit.inTenant(tenant).audit(user.actor, "console.signIn", ["with": how])
        }
        return (secret, session)
    }

    /// The session a cookie's secret names, while it lasts and its tenant is active.
    public func session(secret: String) async throws -> ConsoleSession? {
        try await persistence.control(.read) { unit in
            guard let found = try await unit.console.session(secretHash: Self.hash(secret)),
                let tenant = try await unit.tenants.find(id: found.user.tenantId), tenant.status == .active
            else { return nil }
            return ConsoleSession(user: found.user, tenant: tenant, csrfToken: found.csrfToken, expiresAt: found.expiresAt)
        }
    }

    public func signOut(secret: String) async throws {
        try await persistence.control { try await $0.console.endSession(secretHash: Self.hash(secret)) }
    }

    static func hash(_ secret: String) -> Data { Data(SHA256.hash(data: Data(secret.utf8))) }
}

extension Validate {
    /// An email address as people type it: trimmed and lowercased, one '@' with text either side, no spaces,
    /// at most 254 characters.
    public static func email(_ value: String, field: String = "email") throws(StoregateError) -> String {
        let email = value.trimmingCharacters(in: .whitespaces).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard (3...254).contains(email.utf8.count), parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix("."), !email.contains(where: { $0.isWhitespace || $0.isNewline })
        else { throw .invalid(field: field, reason: "must be an email address such as ann@example.com") }
        return email
    }

    /// A console password: 12 to 72 bytes (bcrypt reads no further).
    public static func password(_ value: String, field: String = "password") throws(StoregateError) -> String {
        guard (12...72).contains(value.utf8.count) else { throw .invalid(field: field, reason: "must be 12 to 72 bytes long") }
        return value
    }
}
