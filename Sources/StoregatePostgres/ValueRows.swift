import PostgresNIO

/// A statement that writes or looks up many rows at once: SQL around lists of value tuples, every value
/// bound and typed as in `TypedQuery`, so that a batch of notifications costs one statement per table
/// rather than one per notification. Optional values are bound as typed NULLs, which arrays cannot carry.
struct ValueRows {
    private var sql: TypedQuery.StringInterpolation

    init(_ text: String) {
        sql = TypedQuery.StringInterpolation(literalCapacity: text.count, interpolationCount: 0)
        sql.appendLiteral(text)
    }

    /// SQL of its own (never a value).
    mutating func append(_ text: String) { sql.appendLiteral(text) }

    /// One value, cast to its Swift type's (as a tuple's values are).
    mutating func append<Value: PostgresNonThrowingEncodable>(value: Value?) {
        sql.appendInterpolation(value)
        if let type = Value.psqlType.knownSQLName { sql.appendLiteral("::" + type) }
    }

    /// `(v1, v2, …), (…)`: one tuple per element of `rows`, its values added by `write` in order.
    mutating func tuples<Row>(_ rows: [Row], _ write: (inout Tuple, Row) -> Void) {
        for (index, row) in rows.enumerated() {
            sql.appendLiteral(index == 0 ? "(" : ", (")
            var tuple = Tuple(sql: sql)
            write(&tuple, row)
            sql = tuple.sql
            sql.appendLiteral(")")
        }
    }

    var query: TypedQuery { TypedQuery(stringInterpolation: sql) }

    struct Tuple {
        fileprivate var sql: TypedQuery.StringInterpolation
        private var count = 0

        fileprivate init(sql: TypedQuery.StringInterpolation) { self.sql = sql }

        /// The next value, cast to `cast` (a type name), else to its Swift type's: a statement runs
        /// unprepared until it repeats, and there an untyped NULL in a list of values would be text. (Every
        /// value is cast, NULL or not, so that the text of a statement depends on its number of rows only.)
        mutating func add<Value: PostgresNonThrowingEncodable>(_ value: Value?, cast: String? = nil) {
            if count > 0 { sql.appendLiteral(", ") }
            count += 1
            sql.appendInterpolation(value)
            if let type = cast ?? Value.psqlType.knownSQLName { sql.appendLiteral("::" + type) }
        }
    }
}
