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
    /// The same, for a unit that creates or drops a tenant's schema (`UnitAccess.schemaChange`).
    public var schemaChange: Duration = .seconds(120)
    /// The same, for a rebuild over a tenant's whole history (`UnitAccess.rebuild`): about 70 s a
    /// million lifecycle events (deploy/FIGURES.md), so some 50 million.
    public var rebuild: Duration = .seconds(3600)
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

/// The held connection was closed by the other end (PostgreSQL ended its backend, or the network
/// dropped it) before a statement was sent on it.
struct ConnectionLost: Error, CustomStringConvertible {
    /// Found closed (or closing) as it was leased, before anything was sent on it: the unit may lease
    /// another once this one's close is complete (and so heard by the pool).
    var closedWhenLeased: PostgresConnection?

    var description: String { "the database closed the connection" }
}

/// The connection a unit of work holds, so a deadline can close it: PostgreSQL statements cannot be
/// cancelled from the client, but closing the connection ends the wait for an answer that never comes.
///
/// Only a statement in flight is ended that way. PostgresNIO (1.33) writes a statement to its channel
/// without a promise, so a statement sent after the connection closed is never answered and its caller
/// waits forever. A unit stopped between statements is therefore told at its next statement, which
/// closes the connection then and throws instead of sending.
final class HeldConnection: Sendable {
    /// The unit of work's held connection, for the statement helpers (`PostgresConnection.run` and the rest).
    @TaskLocal static var current: HeldConnection?

    private struct State {
        var connection: PostgresConnection?
        /// The checkout deadline passed (with nothing held), or the held connection was closed.
        var closed = false
        /// The unit was cancelled or its deadline passed: no statement may start.
        var stopped = false
        var inFlight = 0
        /// Statements started on the held connection.
        var started = 0
    }
    private let state = Mutex(State())

    /// Holds `conn` for the unit of work, or refuses the work (`CancellationError`) before it sends
    /// anything when the checkout deadline passed first: the connection then goes back to the pool
    /// untouched. (Closing a connection the pool has just leased out, while the work starts using it,
    /// can leave that work waiting forever.)
    ///
    /// A connection that closed while it sat in the pool (the server ended it, or another unit's deadline
    /// closed it a moment before the pool heard) is refused too, and not held, with
    /// `ConnectionLost(whenLeased: true)`: a statement written to it would never be answered, and nothing
    /// has been, so the unit leases another.
    func hold(_ conn: PostgresConnection) throws {
        if conn.isClosed { throw ConnectionLost(closedWhenLeased: conn) }
        let refused = state.withLock { state in
            if !state.closed {
                state.connection = conn
                state.started = 0
            }
            return state.closed
        }
        if refused { throw CancellationError() }
    }

    /// At the checkout deadline: true, and no connection will be held from now on, unless one is held.
    func expireUnlessHeld() -> Bool {
        state.withLock { state in
            guard state.connection == nil else { return false }
            state.closed = true
            return true
        }
    }

    /// Whether the checkout deadline passed with no connection held.
    var expired: Bool { state.withLock { $0.closed && $0.connection == nil } }

    /// Whether the held connection was closed (a deadline or a cancellation stopped the unit).
    var isClosed: Bool { state.withLock { $0.closed && $0.connection != nil } }

    /// Runs one statement of the unit, unless the unit was stopped: then the connection is closed and
    /// `CancellationError` thrown without sending anything.
    func statement<T>(isolation: isolated (any _Concurrency.Actor)? = #isolation, _ send: () async throws -> T) async throws -> T {
        let (refused, first) = state.withLock { state -> (PostgresConnection??, Bool) in
            guard state.stopped else {
                state.inFlight += 1
                state.started += 1
                return (.none, state.started == 1)
            }
            state.closed = true
            return (.some(state.connection), false)
        }
        if let connection = refused {
            // Closed before the connection goes back: the pool must not lease it out again.
            try? await connection?.close().get()
            throw CancellationError()
        }
        if let closed = state.withLock({ $0.connection?.isClosed == true ? $0.connection : nil }) {
            throw ConnectionLost(closedWhenLeased: first ? closed : nil)
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        do {
            return try await send()
        } catch let error as PSQLError where first && error.code == .clientClosedConnection {
            // Closing when leased (its close not yet heard by the pool): PostgresNIO refused the unit's
            // first statement without sending it, so the unit may lease another connection.
            throw ConnectionLost(closedWhenLeased: state.withLock { $0.connection })
        }
    }

    /// Closes the connection after a statement failed in a way that spoils it (see `prepared`): nothing more is
    /// sent on it, ROLLBACK included, and the pool replaces it.
    func closeAfterFailure() {
        let connection = state.withLock { state -> PostgresConnection? in
            state.stopped = true
            state.closed = true
            return state.connection
        }
        connection?.close().whenComplete { _ in }
    }

    /// Stops the unit (cancelled, or past its deadline): a statement in flight is ended by closing the
    /// connection; otherwise the next statement refuses to start.
    func stop() {
        let connection = state.withLock { state -> PostgresConnection? in
            state.stopped = true
            guard state.inFlight > 0 else { return nil }
            state.closed = true
            return state.connection
        }
        connection?.close().whenComplete { _ in }
    }
}

enum Deadline {
    /// Runs `work` with a connection that must be leased within `checkout`, and ends it after `total`:
    /// a lease still waited for is withdrawn (or, when it arrives anyway, released unused), the held
    /// connection's statement in flight is ended (see `HeldConnection`), and `DeadlineExceeded` is thrown.
    /// Cancelling the caller (as a graceful shutdown past its grace period does) stops the unit the same way.
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
                        held.stop()
                    }
                }
                group.addTask {
                    try await Task.sleep(for: checkout)
                    if held.expireUnlessHeld() { throw DeadlineExceeded(phase: .checkout, limit: checkout) }
                    try await Task.sleep(for: total - checkout)
                    throw DeadlineExceeded(phase: .unit, limit: total)
                }
                defer { group.cancelAll() }
                do {
                    while let result = try await group.next() {
                        if let result { return result }
                    }
                } catch is CancellationError where held.expired {
                    // The work refused a lease that came after the checkout deadline, before the timer's error arrived.
                    throw DeadlineExceeded(phase: .checkout, limit: checkout)
                }
                // Not reached: the work either returns a value or throws, and so does the timer.
                throw DeadlineExceeded(phase: .unit, limit: total)
            }
        }
    }
}
