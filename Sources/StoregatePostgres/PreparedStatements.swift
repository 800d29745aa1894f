import Logging
import PostgresNIO
import Synchronization

/// Named prepared statements for the hot reads. Sent unnamed, a statement is parsed and planned on every
/// call, and for the status read planning costs several times its execution (pgbench, 2 cores: 4,200/s
/// unnamed, 30,600/s prepared). A tenant's SQL names its schema, so texts differ per tenant and a backend
/// cannot hold a plan for every tenant. Each connection therefore prepares a text only once it has run it
/// `threshold` times, and holds at most `capacity` prepared texts; past that, texts run unnamed. With
/// 10,000 tenants read at random, few texts repeat on one connection and nothing fills up.
final class PreparedStatements: Sendable {
    static let shared = PreparedStatements()

    let threshold: Int
    let capacity: Int
    /// How many unprepared texts each connection counts uses of, before it starts counting afresh.
    let counted: Int
    private let connections = Mutex([ObjectIdentifier: Entry]())

    private final class Entry: @unchecked Sendable {
        // Guarded by `connections`' lock.
        weak var connection: PostgresConnection?
        var names: [String: String] = [:]
        var uses: [String: Int] = [:]
        init(_ connection: PostgresConnection) { self.connection = connection }
    }

    init(threshold: Int = 3, capacity: Int = 256, counted: Int = 4096) {
        self.threshold = threshold
        self.capacity = capacity
        self.counted = counted
    }

    /// The statement's name on `conn` when it is (or is now to be) prepared there; nil to send it unnamed.
    func name(for sql: String, on conn: PostgresConnection) -> String? {
        let key = ObjectIdentifier(conn)
        let (name, isNew) = connections.withLock { connections -> (String?, Bool) in
            var isNew = false
            let entry: Entry
            if let existing = connections[key], existing.connection === conn {
                entry = existing
            } else {
                entry = Entry(conn)
                connections[key] = entry
                isNew = true
            }
            if let name = entry.names[sql] { return (name, isNew) }
            guard entry.names.count < capacity else { return (nil, isNew) }
            let uses = (entry.uses[sql] ?? 0) + 1
            guard uses >= threshold else {
                if entry.uses.count >= counted { entry.uses.removeAll() }
                entry.uses[sql] = uses
                return (nil, isNew)
            }
            entry.uses[sql] = nil
            let name = "storegate_\(entry.names.count + 1)"
            entry.names[sql] = name
            return (name, isNew)
        }
        if isNew {
            conn.closeFuture.whenComplete { [weak self] _ in self?.forget(key) }
        }
        return name
    }

    private func forget(_ key: ObjectIdentifier) {
        connections.withLock { connections in
            if connections[key]?.connection == nil || connections[key]?.connection?.isClosed == true { connections[key] = nil }
        }
    }

    /// How many texts are prepared on `conn`: for tests.
    func preparedCount(on conn: PostgresConnection) -> Int {
        connections.withLock { connections in
            guard let entry = connections[ObjectIdentifier(conn)], entry.connection === conn else { return 0 }
            return entry.names.count
        }
    }
}

/// A statement whose name and text are the task's current `text`. PostgresNIO keys prepared statements
/// by a type's static name and text; tenant texts are only known at run time, so this one type reads
/// them from a task-local, bound around each `execute`, which reads them there.
struct TenantStatement: PostgresPreparedStatement {
    typealias Row = PostgresRow

    struct Text: Sendable {
        let name: String
        let sql: String
    }

    @TaskLocal static var text = Text(name: "", sql: "")
    static var name: String { text.name }
    static var sql: String { text.sql }

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

extension PostgresConnection {
    /// Every row of a hot statement, each made into a value by `make`: prepared on this connection once
    /// it repeats (see `PreparedStatements`). A prepared statement that fails other than by what its
    /// values did closes the connection, since PostgresNIO would otherwise answer every later use of that
    /// name with the same failure.
    func hot<T>(_ query: PostgresQuery, logger: Logger, _ make: (PostgresRow) throws -> T) async throws -> [T] {
        guard let name = PreparedStatements.shared.name(for: query.sql, on: self) else {
            return try await all(query, logger: logger, make)
        }
        do {
            return try await statement {
                try await TenantStatement.$text.withValue(.init(name: name, sql: query.sql)) {
                    var out: [T] = []
                    for try await row in try await execute(TenantStatement(bindings: query.binds), logger: logger) { out.append(try make(row)) }
                    return out
                }
            }
        } catch {
            guard !Self.leavesStatementPrepared(error) else { throw error }
            // Through the unit's `HeldConnection` when there is one, so that nothing (not even a ROLLBACK)
            // is sent on the closing connection, which PostgresNIO would never answer.
            if let held = HeldConnection.current { held.closeAfterFailure() } else { close().whenComplete { _ in } }
            throw error
        }
    }

    /// Whether `error` came from executing a prepared statement with its values, leaving the statement
    /// itself sound: bad data (class 22), a broken constraint such as a unique violation (23), a
    /// serialization failure or deadlock (40). Preparing a statement fails with none of these.
    static func leavesStatementPrepared(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, error.code == .server, let state = error.serverInfo?[.sqlState] else { return false }
        return state.hasPrefix("22") || state.hasPrefix("23") || state.hasPrefix("40")
    }
}
