import Foundation
import PostgresNIO
import Storegate
import StoregatePostgres

/// Looks for values in every table of a tenant's schema and of the control schema, found by PostgreSQL's
/// catalog (so a table added later is searched too): each row as text, with every compact JWS in it
/// decoded (Apple signs the appAccountToken into base64url, where a plain search would not see it), and
/// every JWS inside those decoded in turn.
enum PersonalDataScan {
    struct Finding: CustomStringConvertible {
        let table: String
        let needle: String
        let row: String
        var description: String { "\(table) holds \(needle): \(row.prefix(300))" }
    }

    static func tables(schema: String, on conn: PostgresConnection, logger: Logger) async throws -> [String] {
        try await conn.query(
            """
            SELECT table_schema || '.' || table_name FROM information_schema.tables
            WHERE table_schema IN (\(schema), 'storegate') AND table_type = 'BASE TABLE' ORDER BY 1
            """, logger: logger
        ).collect().map { try $0.decode(String.self) }
    }

    /// Every row of `tables` holding one of `needles` (compared lowercased), plainly or inside a JWS.
    static func find(_ needles: [String], in tables: [String], on conn: PostgresConnection, logger: Logger) async throws -> [Finding] {
        var found: [Finding] = []
        for table in tables {
            // Names from the catalog: a schema name and a table name, neither with a quote in it.
            let name = table.split(separator: ".").map { "\"\($0)\"" }.joined(separator: ".")
            for row in try await conn.query(PostgresQuery(unsafeSQL: "SELECT t::text FROM \(name) t"), logger: logger).collect() {
                let text = revealed(try row.decode(String.self)).lowercased()
                for needle in needles where text.contains(needle.lowercased()) {
                    found.append(Finding(table: table, needle: needle, row: text))
                }
            }
        }
        return found
    }

    /// The text with the payload of every compact JWS in it appended, decoded, and theirs, to a depth of 4.
    static func revealed(_ text: String, depth: Int = 0) -> String {
        guard depth < 4 else { return text }
        var out = text
        let jws = /[A-Za-z0-9_-]{8,}\.([A-Za-z0-9_-]{8,})\.[A-Za-z0-9_-]*/
        for match in text.matches(of: jws) {
            guard let data = base64URL(String(match.output.1)) else { continue }
            out += "\n" + revealed(String(decoding: data, as: UTF8.self), depth: depth + 1)
        }
        return out
    }

    static func base64URL(_ text: String) -> Data? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s)
    }
}
