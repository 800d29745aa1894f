import Logging
import PostgresNIO
import Synchronization

/// A write sent on its own, outside a transaction, is confirmed committed before it counts as done.
///
/// PostgreSQL commits such a statement at the extended protocol's Sync, after it has answered the
/// statement itself (its rows and CommandComplete); PostgresNIO (1.33) returns the statement's rows as
/// soon as CommandComplete arrives, without waiting for the ReadyForQuery that follows the commit.
/// Normally that does not matter: the answer waits in the server's send buffer and leaves with the
/// ReadyForQuery, once the commit is done. But a backend ended while its commit waits for the
/// synchronous standby (the fast shutdown pg_auto_failover's keeper gives a demoted primary, or
/// `pg_terminate_backend`) sends that buffer with its warning ("canceling the wait for synchronous
/// replication") and closes: the caller would be told "done" for a row that only the old primary has,
/// and a failover discards it. (A COMMIT is answered only after its commit, so a transaction is safe.)
///
/// So after such a write the same connection runs one more statement, which PostgresNIO sends only once
/// the write's ReadyForQuery has arrived: when the commit was ended instead, the connection is gone and
/// the confirmation fails, and so does the write's unit. One round trip, on writes outside transactions
/// only (a notification's one-statement acknowledgement, the job queue's updates).
enum CommitConfirmation {
    /// Whether the statements of the current task run inside a transaction (`PostgresConnection.transaction`).
    @TaskLocal static var inTransaction = false

    /// Whether `sql` may write: Storegate's SQL spells its keywords in capitals, and a statement that
    /// writes names one of these (a `WITH … INSERT` and a `SELECT … FOR UPDATE` included; the latter is
    /// confirmed for nothing, which costs a round trip and no more).
    ///
    /// Read as bytes, once over: `String.contains` compares characters (grapheme breaks and all), and over a
    /// status read's few kilobytes of SQL it was a twelfth of the machine's time on a tenant's first read.
    static func mayWrite(_ sql: String) -> Bool {
        var sql = sql
        return sql.withUTF8 { bytes in
            guard bytes.count >= 5 else { return false }
            for start in 0...(bytes.count - 5) {
                for keyword in writingKeywords[Int(bytes[start])] where start + keyword.count <= bytes.count {
                    if zip(keyword, bytes[start...]).allSatisfy({ $0 == $1 }) { return true }
                }
            }
            return false
        }
    }

    /// The keywords of statements that write, indexed by their first byte.
    private static let writingKeywords: [[[UInt8]]] = {
        var table = [[[UInt8]]](repeating: [], count: 256)
        for keyword in ["INSERT", "UPDATE", "DELETE", "MERGE", "TRUNCATE"] { table[Int(keyword.utf8.first!)].append(Array(keyword.utf8)) }
        return table
    }()

    /// Whether a statement of `sql` just run needs its commit confirmed.
    static func needed(after sql: String) -> Bool {
        !inTransaction && mayWrite(sql)
    }
}

extension PostgresConnection {
    /// Returns once the statements sent before have committed (see `CommitConfirmation`); throws
    /// `ConnectionLost` when the connection closes first.
    ///
    /// The confirmation is sent while the write's ReadyForQuery may still be on its way, and a connection
    /// can close meanwhile (its backend ended, or the pool closing at shutdown). PostgresNIO (1.33) never
    /// answers a statement written to a channel that has just closed, so the statement's answer and the
    /// connection's close are awaited side by side, and the first decides.
    func confirmCommitted(logger: Logger) async throws {
        let decided = Mutex(false)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let decide = { @Sendable (result: Result<Void, any Error>) in
                if decided.withLock({ decided in
                    defer { decided = true }
                    return !decided
                }) {
                    continuation.resume(with: result)
                }
            }
            closeFuture.whenComplete { _ in decide(.failure(ConnectionLost())) }
            Task {
                do {
                    try await self.run("SELECT 1", logger: logger)
                    decide(.success(()))
                } catch { decide(.failure(error)) }
            }
        }
    }
}
