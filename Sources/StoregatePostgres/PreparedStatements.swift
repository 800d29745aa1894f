import Logging
import PostgresNIO
import Synchronization

/// Named prepared statements for the statements of hot paths. Sent unnamed, a statement is parsed and planned on
/// every call, and for the status read planning costs several times its execution (pgbench, 2 cores:
/// 4,200/s unnamed, 30,600/s prepared). A tenant's SQL names its schema, so texts differ per tenant and a
/// backend cannot hold a plan for every tenant. Each connection therefore prepares a text only once it
/// has run it `threshold` times, and holds at most `capacity` prepared texts: past that, the least
/// recently used is deallocated to make room.
///
/// A statement is keyed by its text and its declared parameter types (`TypedQuery`), and each preparation
/// gets a name never used before, so a statement that failed is simply forgotten: the next use prepares it
/// afresh under a new name, and nothing is left that fails again.
final class PreparedStatements: Sendable {
    static let shared = PreparedStatements()

    let threshold: Int
    let capacity: Int
    /// How many unprepared texts each connection counts uses of, before it starts counting afresh.
    let counted: Int
    private let connections = Mutex([ObjectIdentifier: Entry]())
    private let names = Atomic<Int>(0)

    struct Key: Hashable, Sendable {
        let sql: String
        let types: [PostgresDataType]
    }

    private struct Prepared {
        let name: String
        var lastUse: Int
        /// Whether it ran once without failing, so PostgreSQL holds it (a failed preparation leaves nothing).
        var sound: Bool
    }

    private final class Entry: @unchecked Sendable {
        // Guarded by `connections`' lock.
        weak var connection: PostgresConnection?
        var prepared: [Key: Prepared] = [:]
        var uses: [Key: Int] = [:]
        var clock = 0
        /// Names PostgreSQL holds that are no longer used: deallocated before the connection's next preparation.
        var stale: [String] = []
        init(_ connection: PostgresConnection) { self.connection = connection }
    }

    /// What a statement prepared once it repeats does on a connection: run unnamed, or run under `name`, after deallocating `stale`.
    struct Plan {
        var name: String?
        var stale: [String] = []
    }

    init(threshold: Int = 3, capacity: Int = 256, counted: Int = 4096) {
        self.threshold = threshold
        self.capacity = capacity
        self.counted = counted
    }

    func plan(for key: Key, on conn: PostgresConnection) -> Plan {
        let id = ObjectIdentifier(conn)
        let (plan, isNew) = connections.withLock { connections -> (Plan, Bool) in
            var isNew = false
            let entry: Entry
            if let existing = connections[id], existing.connection === conn {
                entry = existing
            } else {
                entry = Entry(conn)
                connections[id] = entry
                isNew = true
            }
            entry.clock += 1
            if let prepared = entry.prepared[key] {
                entry.prepared[key]?.lastUse = entry.clock
                return (Plan(name: prepared.name), isNew)
            }
            let uses = (entry.uses[key] ?? 0) + 1
            guard uses >= threshold else {
                if entry.uses.count >= counted { entry.uses.removeAll() }
                entry.uses[key] = uses
                return (Plan(), isNew)
            }
            entry.uses[key] = nil
            if entry.prepared.count >= capacity, let oldest = entry.prepared.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                entry.prepared[oldest.key] = nil
                if oldest.value.sound { entry.stale.append(oldest.value.name) }
            }
            let name = "storegate_\(names.add(1, ordering: .relaxed).newValue)"
            entry.prepared[key] = Prepared(name: name, lastUse: entry.clock, sound: false)
            defer { entry.stale.removeAll() }
            return (Plan(name: name, stale: entry.stale), isNew)
        }
        if isNew {
            conn.closeFuture.whenComplete { [weak self] _ in self?.forget(id) }
        }
        return plan
    }

    /// The statement ran under `name`: PostgreSQL holds it.
    func ran(_ key: Key, name: String, on conn: PostgresConnection) {
        update(conn) { entry in
            if entry.prepared[key]?.name == name { entry.prepared[key]?.sound = true }
        }
    }

    /// The statement failed under `name`: forgotten, so its next use prepares it afresh.
    func failed(_ key: Key, name: String, on conn: PostgresConnection) {
        update(conn) { entry in
            guard let prepared = entry.prepared[key], prepared.name == name else { return }
            entry.prepared[key] = nil
            if prepared.sound { entry.stale.append(name) }
        }
    }

    private func update(_ conn: PostgresConnection, _ change: (Entry) -> Void) {
        connections.withLock { connections in
            if let entry = connections[ObjectIdentifier(conn)], entry.connection === conn { change(entry) }
        }
    }

    private func forget(_ id: ObjectIdentifier) {
        connections.withLock { connections in
            if connections[id]?.connection == nil || connections[id]?.connection?.isClosed == true { connections[id] = nil }
        }
    }

    /// How many texts are prepared on `conn`: for tests.
    func preparedCount(on conn: PostgresConnection) -> Int {
        connections.withLock { connections in
            guard let entry = connections[ObjectIdentifier(conn)], entry.connection === conn else { return 0 }
            return entry.prepared.count
        }
    }
}

/// A statement whose name, text and parameter types are the task's current `text`. PostgresNIO keys
/// prepared statements by a type's static name and text; tenant texts are only known at run time, so this
/// one type reads them from a task-local, bound around each `execute`, which reads them there.
struct TenantStatement: PostgresPreparedStatement {
    typealias Row = PostgresRow

    struct Text: Sendable {
        let name: String
        let sql: String
        let types: [PostgresDataType]
    }

    @TaskLocal static var text = Text(name: "", sql: "", types: [])
    static var name: String { text.name }
    static var sql: String { text.sql }
    /// Declared at preparation, so a NULL bound by the call that prepares it types nothing by accident.
    static var bindingDataTypes: [PostgresDataType] { text.types }

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

extension PostgresConnection {
    /// Every row of a statement prepared once it repeats, each made into a value by `make`: prepared on this connection once
    /// it repeats (see `PreparedStatements`), with its parameters' types declared. A prepared statement
    /// that fails is forgotten; when it failed other than by what its values did, the connection is closed
    /// too, since it may be in a state PostgresNIO cannot recover.
    func prepared<T>(
        _ query: TypedQuery, logger: Logger, statements: PreparedStatements = .shared, _ make: (PostgresRow) throws -> T
    ) async throws -> [T] {
        let key = PreparedStatements.Key(sql: query.query.sql, types: query.types)
        let plan = statements.plan(for: key, on: self)
        guard let name = plan.name else { return try await all(query.query, logger: logger, make) }
        for stale in plan.stale { try await run("DEALLOCATE \(unescaped: stale)", logger: logger) }
        do {
            let rows = try await statement(key.sql, logger: logger) {
                try await TenantStatement.$text.withValue(.init(name: name, sql: key.sql, types: key.types)) {
                    var out: [T] = []
                    for try await row in try await execute(TenantStatement(bindings: query.query.binds), logger: logger) { out.append(try make(row)) }
                    return out
                }
            }
            statements.ran(key, name: name, on: self)
            return rows
        } catch {
            statements.failed(key, name: name, on: self)
            guard !Self.leavesConnectionSound(error) else { throw error }
            // Closed already as it was leased: the unit leases another, which must not find itself stopped.
            if let lost = error as? ConnectionLost, lost.closedWhenLeased != nil { throw error }
            // Through the unit's `HeldConnection` when there is one, so that nothing (not even a ROLLBACK)
            // is sent on the closing connection, which PostgresNIO would never answer.
            if let held = HeldConnection.current { held.closeAfterFailure() } else { close().whenComplete { _ in } }
            throw error
        }
    }

    /// Whether `error` came from executing a statement with its values, leaving the connection sound: bad
    /// data (class 22), a broken constraint such as a unique violation (23), a serialization failure or
    /// deadlock (40).
    static func leavesConnectionSound(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, error.code == .server, let state = error.serverInfo?[.sqlState] else { return false }
        return state.hasPrefix("22") || state.hasPrefix("23") || state.hasPrefix("40")
    }
}
