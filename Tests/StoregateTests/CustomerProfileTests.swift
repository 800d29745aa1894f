import Foundation
import JSONRPC
import Storegate
import StoregatePostgres
import Testing

/// A customer's attributes and support notes over RPC: limits named by field, all or nothing, paging,
/// authorship and audit, and another tenant's customer as unknown as a missing one.
@Suite struct CustomerProfileTests {
    static func error(_ reply: [String: Any]) -> (code: Int?, field: String?) {
        let error = reply["error"] as? [String: Any]
        return (error?["code"] as? Int, (error?["data"] as? [String: Any])?["field"] as? String)
    }

    @Test func attributesAreSetAndRemovedAllOrNothing() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "profiles", bundleId: "com.example.profiles")
            try await TestServer.with(capabilities) { server in
                func call(_ method: String, _ params: [String: Any]) async throws -> [String: Any] {
                    try await server.call(method, params, apiKey: a.apiKey)
                }
                _ = try await call("accounts.ensure", ["customerId": "ann"])
                let set = try await call("customers.setAttributes", ["customerId": "ann", "set": ["plan": "team", "crm.id": "0042"]])
                let attributes = (set["result"] as? [String: Any])?["attributes"] as? [String: String]
                #expect(attributes == ["plan": "team", "crm.id": "0042"])
                #expect((set["result"] as? [String: Any])?["updatedAt"] is String)
                let changed = try await call(
                    "customers.setAttributes", ["customerId": "ann", "set": ["plan": "enterprise"], "remove": ["crm.id", "never-set"]])
                #expect((changed["result"] as? [String: Any])?["attributes"] as? [String: String] == ["plan": "enterprise"])

                // Refused whole, naming the field: a bad key, an empty value, a key both set and removed, too many.
                #expect(Self.error(try await call("customers.setAttributes", ["customerId": "ann", "set": ["bad key": "x"]])).field == "set")
                #expect(Self.error(try await call("customers.setAttributes", ["customerId": "ann", "set": ["tier": ""]])).field == "set.tier")
                #expect(
                    Self.error(try await call("customers.setAttributes", ["customerId": "ann", "set": ["plan": "x"], "remove": ["plan"]])).field == "remove")
                var many: [String: String] = [:]
                for n in 0..<50 { many["k\(n)"] = "v" }
                #expect(Self.error(try await call("customers.setAttributes", ["customerId": "ann", "set": many])).field == "set", "51 with plan")
                #expect(Self.error(try await call("customers.setAttributes", ["customerId": "ann"])).field == "set", "nothing to do")
                let unchanged = try await call("customers.attributes", ["customerId": "ann"])
                #expect((unchanged["result"] as? [String: Any])?["attributes"] as? [String: String] == ["plan": "enterprise"], "nothing half-written")
                let unknown = try await call("customers.attributes", ["customerId": "nobody"])
                #expect(Self.error(unknown).code == 1004)

                // Audited by keys, never values.
                let audit = try await capabilities.persistence.inTenant(a.tenant.tenant, .read) { try await $0.auditLog() }
                let entry = try #require(audit.last { $0.action == "customer.setAttributes" })
                #expect(entry.detail.contains("plan") && !entry.detail.contains("enterprise") && !entry.detail.contains("0042"))
            }
        }
    }

    @Test func notesKeepTheirAuthorLinesAndOrder() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "notes", bundleId: "com.example.notes")
            try await TestServer.with(capabilities) { server in
                func call(_ method: String, _ params: [String: Any]) async throws -> [String: Any] {
                    try await server.call(method, params, apiKey: a.apiKey)
                }
                _ = try await call("accounts.ensure", ["customerId": "bo"])
                var ids: [String] = []
                for n in 1...3 {
                    let added = try await call("customers.addNote", ["customerId": "bo", "text": "  call \(n)\r\nasked for a refund  "])
                    let note = try #require(added["result"] as? [String: Any])
                    #expect(note["text"] as? String == "call \(n)\nasked for a refund", "trimmed, lines kept")
                    #expect((note["author"] as? String)?.hasPrefix("apikey:") == true)
                    ids.append(try #require(note["noteId"] as? String))
                }
                let first = try #require(try await call("customers.notes", ["customerId": "bo", "limit": 2])["result"] as? [String: Any])
                #expect((first["notes"] as? [[String: Any]])?.map { $0["noteId"] as? String } == [ids[2], ids[1]], "newest first")
                let next = try #require(first["next"] as? String)
                let second = try #require(try await call("customers.notes", ["customerId": "bo", "before": next])["result"] as? [String: Any])
                #expect((second["notes"] as? [[String: Any]])?.map { $0["noteId"] as? String } == [ids[0]])
                #expect(second["next"] == nil)

                #expect(Self.error(try await call("customers.addNote", ["customerId": "bo", "text": "   "])).field == "text")
                #expect(Self.error(try await call("customers.addNote", ["customerId": "bo", "text": "bell \u{7}"])).field == "text")
                #expect(Self.error(try await call("customers.notes", ["customerId": "bo", "before": "nope"])).field == "before")
                let deleted = try await call("customers.deleteNote", ["customerId": "bo", "noteId": ids[1]])
                #expect((deleted["result"] as? [String: Any])?["deleted"] as? Bool == true)
                #expect(Self.error(try await call("customers.deleteNote", ["customerId": "bo", "noteId": ids[1]])).code == 1004, "once")
                let left = try #require(try await call("customers.notes", ["customerId": "bo"])["result"] as? [String: Any])
                #expect((left["notes"] as? [[String: Any]])?.count == 2)
            }
        }
    }

    /// Tenant B cannot read or change tenant A's customer's attributes or notes, even with the same
    /// customer id or A's note id: B's answers are those for a customer or note that does not exist.
    @Test func anotherTenantsCustomerIsUnknown() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "profile-a", bundleId: "com.example.pa")
            let b = try await Fixtures.tenant(capabilities, slug: "profile-b", bundleId: "com.example.pb")
            try await TestServer.with(capabilities) { server in
                _ = try await server.call("accounts.ensure", ["customerId": "cy"], apiKey: a.apiKey)
                _ = try await server.call("customers.setAttributes", ["customerId": "cy", "set": ["plan": "a-only"]], apiKey: a.apiKey)
                let note = try await server.call("customers.addNote", ["customerId": "cy", "text": "A's note"], apiKey: a.apiKey)
                let noteId = try #require((note["result"] as? [String: Any])?["noteId"] as? String)

                #expect(Self.error(try await server.call("customers.attributes", ["customerId": "cy"], apiKey: b.apiKey)).code == 1004)
                #expect(Self.error(try await server.call("customers.notes", ["customerId": "cy"], apiKey: b.apiKey)).code == 1004)
                _ = try await server.call("accounts.ensure", ["customerId": "cy"], apiKey: b.apiKey)
                let own = try await server.call("customers.attributes", ["customerId": "cy"], apiKey: b.apiKey)
                #expect((own["result"] as? [String: Any])?["attributes"] as? [String: String] == [:], "B's own cy has nothing of A's")
                let foreign = try await server.call("customers.deleteNote", ["customerId": "cy", "noteId": noteId], apiKey: b.apiKey)
                #expect(Self.error(foreign).code == 1004)
                let kept = try await server.call("customers.notes", ["customerId": "cy"], apiKey: a.apiKey)
                #expect(((kept["result"] as? [String: Any])?["notes"] as? [[String: Any]])?.count == 1)
            }
        }
    }
}
