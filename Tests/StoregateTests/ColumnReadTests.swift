import PostgresNIO
import Storegate
import Testing

@testable import StoregatePostgres

/// A row reader names each column it reads: a statement whose columns come in another order than its
/// reader expects fails loudly instead of putting one `text` column's value in another's place.
@Suite struct ColumnReadTests {
    @Test func aCellIsReadByTheNameItsReaderExpects() async throws {
        try await TestDatabase.with { capabilities, _ in
            let logger = capabilities.postgres.logger
            let read = try await capabilities.postgres.client.withConnection { conn in
                try await conn.all("SELECT 'ada' AS customer_id, 'com.example' AS bundle_id", logger: logger) { row in
                    var cells = Cells(row)
                    return (try cells.next("customer_id", String.self), try cells.next("bundle_id", String.self))
                }
            }
            #expect(read.first?.0 == "ada" && read.first?.1 == "com.example")

            await #expect(throws: DatabaseError.self) {
                try await capabilities.postgres.client.withConnection { conn in
                    try await conn.all("SELECT 'com.example' AS bundle_id, 'ada' AS customer_id", logger: logger) { row in
                        var cells = Cells(row)
                        return (try cells.next("customer_id", String.self), try cells.next("bundle_id", String.self))
                    }
                }
            }

            let columns = [Column("s.app_id", "uuid"), Column("s.renewal::text", "text", as: "renewal")]
            #expect(columns.selected == "s.app_id AS app_id, s.renewal::text AS renewal")
            #expect(columns.nulls(named: "p_") == "NULL::uuid AS p_app_id, NULL::text AS p_renewal")
        }
    }
}
