import Foundation
import JSONRPC
import Storegate
import StoregatePostgres
import Testing

@Suite struct IsolationTests {
    /// Tenant A's key never reaches tenant B's data: B's ids look exactly like ids that do not exist.
    @Test func tenantsCannotSeeEachOther() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "tenant-a", bundleId: "com.example.a")
            let b = try await Fixtures.tenant(capabilities, slug: "tenant-b", bundleId: "com.example.b")
            try await TestServer.with(capabilities) { server in
                let me = try await server.call("tenant.get", apiKey: a.apiKey)
                #expect((me["result"] as? [String: Any])?["slug"] as? String == "tenant-a")

                let list = try await server.call("apps.list", apiKey: a.apiKey)
                let apps = ((list["result"] as? [String: Any])?["apps"] as? [[String: Any]]) ?? []
                #expect(apps.map { $0["bundleId"] as? String } == ["com.example.a"])

                let foreignBundle = try await server.rpc(
                    raw: #"{"jsonrpc":"2.0","method":"apps.get","params":{"bundleId":"com.example.b"},"id":1}"#, apiKey: a.apiKey)
                let missingBundle = try await server.rpc(
                    raw: #"{"jsonrpc":"2.0","method":"apps.get","params":{"bundleId":"com.example.zz"},"id":1}"#, apiKey: a.apiKey)
                #expect(foreignBundle.text == missingBundle.text)
                #expect(foreignBundle.text.contains("1004"))

                let foreignId = try await server.rpc(
                    raw: #"{"jsonrpc":"2.0","method":"apps.get","params":{"appId":"\#(b.appId.uuidString.lowercased())"},"id":1}"#, apiKey: a.apiKey)
                let missingId = try await server.rpc(
                    raw: #"{"jsonrpc":"2.0","method":"apps.get","params":{"appId":"\#(UUID().uuidString.lowercased())"},"id":1}"#, apiKey: a.apiKey)
                #expect(foreignId.text == missingId.text)
                #expect(foreignId.text.contains(#""code":1004"#))

                let own = try await server.rpc(
                    raw: #"{"jsonrpc":"2.0","method":"apps.get","params":{"appId":"\#(b.appId.uuidString.lowercased())"},"id":1}"#, apiKey: b.apiKey)
                #expect(own.text.contains("com.example.b"))

                // Data-retention windows name no tenant: a key sets its own tenant's, and naming another is refused.
                let named = try await server.call("dataRetention.set", ["events": 1, "tenant": "tenant-b"], apiKey: a.apiKey)
                #expect((named["error"] as? [String: Any])?["code"] as? Int == -32602)
                _ = try await server.call("dataRetention.set", ["events": 1], apiKey: a.apiKey)
                let theirs = try await server.call("dataRetention.get", apiKey: b.apiKey)
                let windows = ((theirs["result"] as? [String: Any])?["windows"] as? [[String: Any]]) ?? []
                #expect(windows.first { $0["kind"] as? String == "events" }?["minutes"] as? Int == 576_000, "A's window is not B's")
            }
        }
    }

    /// A key is resolved to its tenant and marked used on its first use; a wrong secret under its prefix
    /// is refused and marks nothing.
    @Test func aKeysFirstUseMarksItAndAWrongSecretDoesNot() async throws {
        try await TestDatabase.with { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "marked", bundleId: "com.example.marked")
            let key = try await capabilities.apiKeys.issue(tenant: a.tenant.tenant, label: "second", actor: Actor("test"))
            func lastUsed() async throws -> Date? {
                try await capabilities.apiKeys.list(tenant: a.tenant.tenant).first { $0.prefix == key.record.prefix }?.lastUsedAt
            }
            #expect(try await lastUsed() == nil)
            let forged = String(key.secret.prefix(14)) + String(repeating: "a", count: 40)
            await #expect(throws: StoregateError.self) { _ = try await capabilities.apiKeys.authenticate(forged) }
            // Marks are written behind the request: waited for, so that a mark the forgery made would show.
            await capabilities.apiKeys.lastUsesSettled()
            #expect(try await lastUsed() == nil)
            let caller = try await capabilities.apiKeys.authenticate(key.secret)
            #expect(caller.tenant.slug == "marked" && caller.tenant.id == a.tenant.tenant.id && caller.apiKeyPrefix == key.record.prefix)
            await capabilities.apiKeys.lastUsesSettled()
            #expect(try await lastUsed() != nil)
        }
    }

    /// Revocation and suspension take effect within the cache lifetime.
    @Test func revokedKeysAndSuspendedTenantsAreRefused() async throws {
        try await TestDatabase.with(authCacheTTL: .milliseconds(100)) { capabilities, _ in
            let a = try await Fixtures.tenant(capabilities, slug: "revoker", bundleId: "com.example.revoker")
            try await TestServer.with(capabilities) { server in
                let call = #"{"jsonrpc":"2.0","method":"tenant.get","id":1}"#
                #expect(try await server.rpc(raw: call, apiKey: a.apiKey).status == 200)
                // Each change reaches the server's caches by NOTIFY (or their short TTL): waited for, not slept on.
                _ = try await capabilities.tenants.setStatus(slug: "revoker", .suspended, actor: Actor("test"))
                try await eventually("the suspension is seen") { try await server.rpc(raw: call, apiKey: a.apiKey).status == 403 }
                let suspended = try await server.rpc(raw: call, apiKey: a.apiKey)
                #expect(suspended.text.contains(#""code":1002"#))
                _ = try await capabilities.tenants.setStatus(slug: "revoker", .active, actor: Actor("test"))
                try await eventually("the reactivation is seen") { try await server.rpc(raw: call, apiKey: a.apiKey).status == 200 }
                try await capabilities.apiKeys.revoke(tenant: a.tenant.tenant, prefix: a.tenant.apiKeyPrefix, actor: Actor("test"))
                try await eventually("the revocation is seen") { try await server.rpc(raw: call, apiKey: a.apiKey).status == 401 }
                let revoked = try await server.rpc(raw: call, apiKey: a.apiKey)
                #expect(revoked.status == 401)
                #expect(revoked.text.contains("revoked"))
            }
        }
    }
}
