import Foundation
import Storegate
import Testing

/// Input refused before any method runs, the same way for every method: duplicate JSON members, NUL
/// characters in text parameters, and malformed UUIDs, each with a stable code and the field named.
@Suite struct RPCInputTests {
    static func error(_ reply: [String: Any]) -> (code: Int?, field: String?, reason: String?) {
        let error = reply["error"] as? [String: Any]
        let data = error?["data"] as? [String: Any]
        return (error?["code"] as? Int, data?["field"] as? String, data?["reason"] as? String)
    }

    @Test func duplicateMembersNulCharactersAndMalformedUUIDsAreRefused() async throws {
        try await TestDatabase.with { capabilities, _ in
            let made = try await Fixtures.tenant(capabilities, slug: "inputs", bundleId: "com.example.inputs")
            try await TestServer.with(capabilities) { server in
                // The same member twice: the reader cannot know which one was meant.
                let duplicate = try await server.rpc(
                    raw: #"{"jsonrpc":"2.0","method":"accounts.ensure","params":{"customerId":"a","customerId":"b"},"id":1}"#, apiKey: made.apiKey)
                let parsed = try #require(duplicate.json as? [String: Any])
                #expect(Self.error(parsed).code == -32700)
                #expect(Self.error(parsed).reason?.contains(#"duplicate member name "customerId""#) == true, "\(parsed)")
                #expect(try await capabilities.tenants.get(slug: "inputs").id == made.tenant.tenant.id)
                #expect(
                    try await capabilities.persistence.inTenant(made.tenant.tenant, .read) { try await $0.customers.find(customerId: "a") } == nil,
                    "nothing was written")

                for (method, params) in [
                    ("accounts.ensure", ["customerId": "nul\u{0}"]), ("refunds.outcomes", ["customerId": "\u{0}"]),
                    ("apps.get", ["bundleId": "com.example\u{0}"]),
                ] {
                    let reply = try await server.call(method, params, apiKey: made.apiKey)
                    let (code, field, reason) = Self.error(reply)
                    #expect(code == -32602 && field == params.keys.first && reason == "must not contain NUL characters", "\(method): \(reply)")
                }

                for value in ["not-a-uuid", "3f1c0c0e6a1b4c2d9e8f0a1b2c3d4e5f", ""] {
                    let reply = try await server.call("apps.get", ["appId": value], apiKey: made.apiKey)
                    let (code, field, reason) = Self.error(reply)
                    #expect(code == -32602 && field == "appId" && reason?.hasPrefix("must be a UUID such as ") == true, "\(value): \(reply)")
                }
                let upper = try await server.call("apps.get", ["appId": made.appId.uuidString.uppercased()], apiKey: made.apiKey)
                #expect(upper["result"] != nil, "either case is a UUID: \(upper)")
            }
        }
    }
}
