import PostgresNIO

/// A statement whose every parameter declares its PostgreSQL type, taken from the Swift type bound there,
/// so that a NULL is as typed as a value. The statements that are prepared (`prepared`) are written this way.
///
/// PostgresNIO prepares a statement with the types of the values of the call that prepares it, and a
/// NULL carries none; PostgreSQL then infers that parameter's type from the column (an `integer` for an
/// `Int`'s `bigint`), and every later call that binds a value there fails on that connection
/// (`22P03 incorrect binary data format`). Declared types make the prepared statement the same
/// whatever the values of the call that prepared it.
struct TypedQuery: ExpressibleByStringInterpolation, Sendable {
    let query: PostgresQuery
    /// The type of each parameter, `$1` first.
    let types: [PostgresDataType]

    init(stringLiteral value: String) {
        query = PostgresQuery(unsafeSQL: value)
        types = []
    }

    /// SQL of its own whose parameters `$1`, `$2`, … are the given text arrays, in order.
    init(unsafeSQL sql: String, textArrays: [[String]]) {
        var binds = PostgresBindings()
        for array in textArrays { binds.append(array) }
        query = PostgresQuery(unsafeSQL: sql, binds: binds)
        types = textArrays.map { _ in [String].psqlType }
    }

    init(stringInterpolation: StringInterpolation) {
        query = PostgresQuery(stringInterpolation: stringInterpolation.query)
        types = stringInterpolation.types
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var query: PostgresQuery.StringInterpolation
        var types: [PostgresDataType] = []

        init(literalCapacity: Int, interpolationCount: Int) {
            query = .init(literalCapacity: literalCapacity, interpolationCount: interpolationCount)
            types.reserveCapacity(interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) { query.appendLiteral(literal) }

        mutating func appendInterpolation<Value: PostgresNonThrowingEncodable>(_ value: Value?) {
            types.append(Value.psqlType)
            query.appendInterpolation(value)
        }

        mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value?) throws {
            types.append(Value.psqlType)
            try query.appendInterpolation(value)
        }

        /// SQL text that is not a value: only a schema name the server generated, or SQL of its own.
        mutating func appendInterpolation(unescaped text: String) { query.appendInterpolation(unescaped: text) }
    }
}
