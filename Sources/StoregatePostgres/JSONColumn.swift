import AppStoreServer
import Foundation
import PostgresNIO
import Storegate

/// Domain values kept in `jsonb` columns.
enum JSONColumn {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Decodes strictly: a stored value that does not decode fails loudly, naming the column.
    static func decode<T: Decodable>(_ type: T.Type, from json: String, column: String) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(json.utf8))
        } catch {
            throw DatabaseError.undecodable(column: column, reason: "\(error)")
        }
    }
}
