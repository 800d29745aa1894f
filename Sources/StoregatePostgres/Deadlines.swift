import Logging
import PostgresNIO
import Storegate
import Synchronization

/// How long database work may take. A PostgreSQL that is down, restarting or silent makes a call fail
/// within these bounds (as `StoregateError.unavailable`) instead of hanging until it returns.
public struct DatabaseDeadlines: Sendable {
    /// From asking for a connection to holding one: covers connecting and waiting for a busy pool.
    public var checkout: Duration = .seconds(2)
    /// From asking for a connection to the end of the unit of work (every statement, and COMMIT).
    public var unit: Duration = .seconds(10)
    /// The whole readiness check, which must answer well within a second.
    public var readiness: Duration = .milliseconds(800)

    public init() {}

    public init(checkout: Duration, unit: Duration, readiness: Duration) {
        self.checkout = checkout
        self.unit = unit
        self.readiness = readiness
    }
}

/// A deadline that passed: which one, and how long it was.
struct DeadlineExceeded: Error, CustomStringConvertible {
    enum Phase: String { case checkout, unit }
    let phase: Phase
    let limit: Duration

    var description: String {
        switch phase {
        case .checkout: "no database connection within \(limit)"
        case .unit: "the database did not answer within \(limit)"
        }
    }
}

/// The connection a unit of work holds, so a deadline can close it: PostgreSQL statements cannot be
/// cancelled from the client, but closing the connection ends the wait for an answer that never comes.
final class HeldConnection: Sendable {
    private struct State {
        var connection: PostgresConnection?
        var closed = false
    }
    private let state = Mutex(State())

    /// Holds `conn`; closes it at once if the deadline already passed (the lease won the race with it).
    func hold(_ conn: PostgresConnection) {
        let closed = state.withLock { state in
            state.connection = conn
            return state.closed
        }
        if closed { conn.close().whenComplete { _ in } }
    }

    var isHeld: Bool { state.withLock { $0.connection != nil } }

    func close() {
        let connection = state.withLock { state in
            state.closed = true
            return state.connection
        }
        connection?.close().whenComplete { _ in }
    }
}

enum Deadline {
    /// Runs `work` with a connection that must be leased within `checkout`, and ends it after `total`:
    /// a lease still waited for is withdrawn, a held connection is closed, and `DeadlineExceeded` is
    /// thrown. Cancelling the caller (as a graceful shutdown past its grace period does) also closes
    /// the connection.
    static func run<T: Sendable>(
        checkout: Duration, total: Duration, _ work: (_ held: HeldConnection) async throws -> T
    ) async throws -> T {
        try await withoutActuallyEscaping(work) { work in
            // The closure does not outlive this call: the task group below awaits every child task.
            nonisolated(unsafe) let work = work
            return try await withThrowingTaskGroup(of: T?.self) { group in
                let held = HeldConnection()
                group.addTask {
                    try await withTaskCancellationHandler {
                        try await work(held)
                    } onCancel: {
                        held.close()
                    }
                }
                group.addTask {
                    try await Task.sleep(for: checkout)
                    guard held.isHeld else { throw DeadlineExceeded(phase: .checkout, limit: checkout) }
                    try await Task.sleep(for: total - checkout)
                    throw DeadlineExceeded(phase: .unit, limit: total)
                }
                defer { group.cancelAll() }
                while let result = try await group.next() {
                    if let result { return result }
                }
                // Not reached: the work either returns a value or throws, and so does the timer.
                throw DeadlineExceeded(phase: .unit, limit: total)
            }
        }
    }
}
