import AppStoreServer
import Foundation
import KeyVault

/// The console's people (by tenant), their sessions and one-time sign-in links (kept as hashes of their
/// secrets), and sign-in attempts (to limit them).
public protocol ConsoleStore: Sendable {
    /// Adds a person unless the tenant has one with this email; returns whether it was added.
    func add(_ user: ConsoleUser, passwordHash: String?) async throws -> Bool
    func users(tenantId: UUID) async throws -> [ConsoleUser]
    func user(tenantId: UUID, email: String) async throws -> (user: ConsoleUser, passwordHash: String?)?
    /// Removes a person with their sessions and links; returns whether there was one.
    func remove(tenantId: UUID, email: String) async throws -> Bool
    func setPassword(userId: UUID, hash: String) async throws
    func addLink(secretHash: Data, userId: UUID, expiresAt: Date) async throws
    /// Takes a link once: removes it and returns its person when it had not expired.
    func takeLink(secretHash: Data) async throws -> ConsoleUser?
    /// Starts a session, noting the person's sign-in.
    func addSession(secretHash: Data, userId: UUID, csrfToken: String, expiresAt: Date) async throws
    /// An unexpired session, with its person.
    func session(secretHash: Data) async throws -> (user: ConsoleUser, csrfToken: String, expiresAt: Date)?
    /// Ends a session (signing out): it no longer signs anyone in, and is kept, ended, for the tenant's
    /// `consoleSessions` data-retention window.
    func endSession(secretHash: Data) async throws
    /// Counts a sign-in attempt for `userKey` at `at`, in one statement, when fewer than `limit` were made since
    /// `since`; returns false, counting nothing, when `limit` were. Attempts made at once are counted one after
    /// the other, so no more than `limit` ever pass. An attempt stays counted until it is older than `since`
    /// or the key's attempts are cleared.
    func reserveAttempt(userKey: String, at: Date, since: Date, limit: Int) async throws -> Bool
    /// Gives back the attempt counted at `at` (one that was not checked).
    func releaseAttempt(userKey: String, at: Date) async throws
    /// Forgets the key's attempts (a sign-in that succeeded).
    func clearAttempts(userKey: String) async throws
}
