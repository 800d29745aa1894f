import StoregatePostgres
import Testing

/// `STOREGATE_DATABASE_URL` as libpq reads it: one node or several (a primary and its standbys).
@Suite struct DatabaseConfigurationTests {
    @Test func oneNode() throws {
        let config = try DatabaseConfiguration(url: "postgres://storegate:s%40cret@db.internal:6432/storegate?sslmode=disable")
        #expect(config.nodes.map(\.description) == ["db.internal:6432"])
        #expect(config.location == "db.internal:6432/storegate")
        #expect(try DatabaseConfiguration(url: "postgresql://u@h/d").nodes.map(\.description) == ["h:5432"])
    }

    @Test func severalNodesInTheirOrder() throws {
        let config = try DatabaseConfiguration(url: "postgres://storegate@10.0.0.1:5432,10.0.0.2:5433,[::1]:5434,db3/storegate?target_session_attrs=read-write")
        #expect(config.nodes.map(\.description) == ["10.0.0.1:5432", "10.0.0.2:5433", "[::1]:5434", "db3:5432"])
        #expect(config.nodes[2].host == "::1")
        #expect(config.location == "10.0.0.1:5432,10.0.0.2:5433,[::1]:5434,db3:5432/storegate")
    }

    @Test func aSocketDirectory() throws {
        let config = try DatabaseConfiguration(url: "postgres://storegate@/storegate?host=/var/run/postgresql")
        #expect(config.nodes.map(\.host) == ["/var/run/postgresql"])
    }

    /// Storegate writes: a URL that asks for a standby is refused, naming the setting.
    @Test func refused() {
        for url in [
            "mysql://u@h/d", "postgres://h/d", "postgres://u@h:0/d", "postgres://u@h:port/d", "postgres://u@h1:5432,,h2/d",
            "postgres://u@h/d?target_session_attrs=standby",
        ] {
            #expect(throws: DatabaseError.self, "\(url)") { try DatabaseConfiguration(url: url) }
        }
    }
}

extension DatabaseConfigurationTests {
    @Test func thePasswordIsNeverShown() throws {
        let config = try DatabaseConfiguration(url: "postgres://storegate:hunter2@h1,h2/storegate")
        #expect(!"\(config)".contains("hunter2"))
        #expect(!String(reflecting: config).contains("hunter2"))
    }
}
