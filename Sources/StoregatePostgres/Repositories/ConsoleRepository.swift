import Foundation
import Logging
import PostgresNIO
import Storegate

/// The console's people, sessions, one-time links and failed sign-ins, in the control schema.
struct ConsoleRepository: ConsoleStore {
    let conn: PostgresConnection
    let logger: Logger

    static let columns = "u.id, u.tenant_id, u.email, u.role, u.password_hash IS NOT NULL, u.created_at, u.last_sign_in_at"

    static func user(_ row: PostgresRow) throws -> ConsoleUser {
        let r = try row.decode((UUID, UUID, String, String, Bool, Date, Date?).self)
        return ConsoleUser(
            id: r.0, tenantId: r.1, email: r.2, role: ConsoleUser.Role(rawValue: r.3) ?? .viewer, hasPassword: r.4, createdAt: r.5, lastSignInAt: r.6)
    }

    func add(_ user: ConsoleUser, passwordHash: String?) async throws -> Bool {
        try await conn.first(
            """
            INSERT INTO storegate.console_users (id, tenant_id, email, role, password_hash)
            VALUES (\(user.id), \(user.tenantId), \(user.email), \(user.role.rawValue), \(passwordHash))
            ON CONFLICT (tenant_id, email) DO NOTHING RETURNING 1
            """, as: Int.self, logger: logger) != nil
    }

    func users(tenantId: UUID) async throws -> [ConsoleUser] {
        try await conn.all(
            "SELECT \(unescaped: Self.columns) FROM storegate.console_users u WHERE u.tenant_id = \(tenantId) ORDER BY u.email", logger: logger,
            Self.user)
    }

    func user(tenantId: UUID, email: String) async throws -> (user: ConsoleUser, passwordHash: String?)? {
        try await conn.all(
            "SELECT \(unescaped: Self.columns), u.password_hash FROM storegate.console_users u WHERE u.tenant_id = \(tenantId) AND u.email = \(email)",
            logger: logger
        ) { row -> (user: ConsoleUser, passwordHash: String?) in
            let r = try row.decode((UUID, UUID, String, String, Bool, Date, Date?, String?).self)
            return (try Self.user(row), r.7)
        }.first
    }

    func remove(tenantId: UUID, email: String) async throws -> Bool {
        try await conn.first(
            "DELETE FROM storegate.console_users WHERE tenant_id = \(tenantId) AND email = \(email) RETURNING 1", as: Int.self, logger: logger) != nil
    }

    func setPassword(userId: UUID, hash: String) async throws {
        try await conn.run("UPDATE storegate.console_users SET password_hash = \(hash) WHERE id = \(userId)", logger: logger)
    }

    func addLink(secretHash: Data, userId: UUID, expiresAt: Date) async throws {
        try await conn.run(
            """
            WITH expired AS (DELETE FROM storegate.console_sign_in_links WHERE user_id = \(userId) AND expires_at < now())
            INSERT INTO storegate.console_sign_in_links (secret_hash, user_id, expires_at) VALUES (\(secretHash), \(userId), \(expiresAt))
            """, logger: logger)
    }

    func takeLink(secretHash: Data) async throws -> ConsoleUser? {
        try await conn.all(
            """
            WITH taken AS (DELETE FROM storegate.console_sign_in_links WHERE secret_hash = \(secretHash) RETURNING user_id, expires_at)
            SELECT \(unescaped: Self.columns) FROM taken JOIN storegate.console_users u ON u.id = taken.user_id WHERE taken.expires_at > now()
            """, logger: logger, Self.user
        ).first
    }

    func addSession(secretHash: Data, userId: UUID, csrfToken: String, expiresAt: Date) async throws {
        try await conn.run(
            """
            WITH signed_in AS (UPDATE storegate.console_users SET last_sign_in_at = now() WHERE id = \(userId))
            INSERT INTO storegate.console_sessions (secret_hash, user_id, csrf_token, expires_at)
            VALUES (\(secretHash), \(userId), \(csrfToken), \(expiresAt))
            """, logger: logger)
    }

    func session(secretHash: Data) async throws -> (user: ConsoleUser, csrfToken: String, expiresAt: Date)? {
        try await conn.all(
            """
            SELECT \(unescaped: Self.columns), s.csrf_token, s.expires_at
            FROM storegate.console_sessions s JOIN storegate.console_users u ON u.id = s.user_id
            WHERE s.secret_hash = \(secretHash) AND s.expires_at > now()
            """, logger: logger
        ) { row -> (user: ConsoleUser, csrfToken: String, expiresAt: Date) in
            let r = try row.decode((UUID, UUID, String, String, Bool, Date, Date?, String, Date).self)
            return (try Self.user(row), r.7, r.8)
        }.first
    }

    func endSession(secretHash: Data) async throws {
        try await conn.run(
            "UPDATE storegate.console_sessions SET expires_at = least(expires_at, now()) WHERE secret_hash = \(secretHash)", logger: logger)
    }

    func reserveAttempt(userKey: String, at: Date, since: Date, limit: Int) async throws -> Bool {
        // ON CONFLICT locks the key's row: attempts sent at once wait for each other and each sees the one
        // before. Keys left alone past the window are dropped a few at a time.
        try await conn.first(
            """
            WITH idle AS (
                DELETE FROM storegate.console_sign_in_attempts WHERE user_key IN (
                    SELECT user_key FROM storegate.console_sign_in_attempts
                    WHERE last_attempt_at < \(since) AND user_key <> \(userKey) LIMIT 8 FOR UPDATE SKIP LOCKED))
            INSERT INTO storegate.console_sign_in_attempts AS a (user_key, attempted_at, last_attempt_at)
            VALUES (\(userKey), ARRAY[\(at)]::timestamptz[], \(at))
            ON CONFLICT (user_key) DO UPDATE
            SET attempted_at = ARRAY(SELECT t FROM unnest(a.attempted_at) t WHERE t >= \(since)) || \(at)::timestamptz,
                last_attempt_at = \(at)
            WHERE (SELECT count(*) FROM unnest(a.attempted_at) t WHERE t >= \(since)) < \(limit)
            RETURNING true
            """, as: Bool.self, logger: logger) ?? false
    }

    func releaseAttempt(userKey: String, at: Date) async throws {
        try await conn.run(
            """
            UPDATE storegate.console_sign_in_attempts SET attempted_at = array_remove(attempted_at, \(at)::timestamptz)
            WHERE user_key = \(userKey)
            """, logger: logger)
    }

    func clearAttempts(userKey: String) async throws {
        try await conn.run("DELETE FROM storegate.console_sign_in_attempts WHERE user_key = \(userKey)", logger: logger)
    }
}
