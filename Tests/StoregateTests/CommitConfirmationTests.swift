import Testing

@testable import StoregatePostgres

/// Which statements run outside a transaction have their commit confirmed: those that may write.
@Suite struct CommitConfirmationTests {
    @Test func statementsThatMayWriteAreToldFromReads() {
        for sql in [
            "INSERT INTO t VALUES (1)", "UPDATE storegate.api_keys SET last_used_at = now() WHERE id = $1", "DELETE FROM t",
            "WITH moved AS (SELECT 1) INSERT INTO t SELECT * FROM moved", "MERGE INTO t USING s ON true WHEN MATCHED THEN DO NOTHING",
            "TRUNCATE t", "SELECT * FROM t FOR UPDATE", "x UPDATE", "DELETE",
        ] {
            #expect(CommitConfirmation.mayWrite(sql), "\(sql)")
        }
        for sql in [
            "", "SELECT 1", "SELECT c.id FROM t_abc.customers c WHERE c.customer_id = $1", "SELECT 'insert', 'Update' FROM t",
            "SELECT INSER, UPDAT, DELET, MERG, TRUNCAT FROM t", "SELECT 1 -- Ünïcode ✓",
        ] {
            #expect(!CommitConfirmation.mayWrite(sql), "\(sql)")
        }
    }
}
