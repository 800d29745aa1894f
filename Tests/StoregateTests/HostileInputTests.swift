import Foundation
import PostgresNIO
import Storegate
import StoregatePostgres
import Testing

@Suite struct HostileInputTests {
    /// Refused in every field.
    static let invalidText = ["nul\u{0}byte", String(repeating: "a", count: 10_000), "bad \u{FFFD} utf8", "tab\there", "", "   "]
    /// Refused in identifiers (slugs, bundle IDs); stored verbatim, never executed, in free text such as names.
    static let sqlLike = ["x'; DROP TABLE storegate.tenants; --", "semi;colon", "$$ LANGUAGE plpgsql $$", "\"quoted\""]
    static let hostile = invalidText + sqlLike

    @Test func slugsAndNamesAreValidated() async throws {
        try await TestDatabase.with { capabilities, _ in
            for value in Self.hostile {
                await #expect(throws: StoregateError.self) { try await capabilities.tenants.create(slug: value, name: "ok", actor: Actor("test")) }
            }
            for value in Self.invalidText {
                await #expect(throws: StoregateError.self) { try await capabilities.tenants.create(slug: "valid-slug", name: value, actor: Actor("test")) }
            }
            for slug in ["UPPER", "ab", "-lead", "trail-", "1digit", "a_b", "ünï"] {
                await #expect(throws: StoregateError.self) { try await capabilities.tenants.create(slug: slug, name: "ok", actor: Actor("test")) }
            }
            #expect(try await capabilities.tenants.list().isEmpty, "nothing was created")
            let schemas = try await capabilities.postgres.client.withConnection { conn in
                try await conn.first("SELECT count(*)::int FROM pg_namespace WHERE nspname LIKE 't\\_%'", as: Int.self, logger: capabilities.postgres.logger)
            }
            #expect(schemas == 0)

            // Names are display text: an apostrophe belongs in "Bob's Games". Such input is bound, never spliced.
            for (i, value) in Self.sqlLike.enumerated() {
                let tenant = try await capabilities.tenants.create(slug: "sql-like-\(i)", name: value, actor: Actor("test"))
                #expect(try await capabilities.tenants.get(slug: tenant.slug).name == value)
            }
            #expect(try await capabilities.tenants.list().count == Self.sqlLike.count, "the tenants table is intact")
            let tenant = try await capabilities.tenants.create(slug: "valid-slug", name: "Valid", actor: Actor("test"))
            for value in Self.hostile {
                await #expect(throws: StoregateError.self) {
                    try await capabilities.apps.add(tenant: tenant, bundleId: value, appAppleId: nil, environments: ["Sandbox"], actor: Actor("test"))
                }
            }
            for value in Self.invalidText {
                await #expect(throws: StoregateError.self) { try await capabilities.apiKeys.issue(tenant: tenant, label: value, actor: Actor("test")) }
            }
            #expect(try await capabilities.apps.list(tenant: tenant).isEmpty)
            #expect(try await capabilities.apiKeys.list(tenant: tenant).isEmpty)
        }
    }

    @Test func hostileManifestsCreateNothing() async throws {
        try await TestDatabase.with { capabilities, _ in
            let goodKey = Fixtures.p8()
            let environment = ["GOOD_P8": goodKey, "BAD_P8": "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----"]
            func manifest(slug: String = "manifest", name: String = "Name", bundleId: String = "com.example.ok", secondKeyEnv: String = "GOOD_P8") -> String {
                """
                slug: \(Self.yamlString(slug))
                name: \(Self.yamlString(name))
                apiKeys: [{label: backend}]
                apps:
                  - bundleId: com.example.first
                    keys: [{keyId: FIRST00001, issuerId: \(Fixtures.issuerId), p8Env: GOOD_P8}]
                  - bundleId: \(Self.yamlString(bundleId))
                    keys: [{keyId: SECOND0001, issuerId: \(Fixtures.issuerId), p8Env: \(secondKeyEnv)}]
                """
            }
            let applier = ManifestApplier(capabilities: capabilities)
            func apply(_ text: String) async throws {
                let parsed = try TenantManifest.parse(yaml: text)
                _ = try await applier.apply(parsed, baseDirectory: URL(fileURLWithPath: "/nonexistent"), environment: environment, actor: Actor("test"))
            }
            for value in Self.hostile {
                await #expect(throws: StoregateError.self) { try await apply(manifest(slug: value)) }
                await #expect(throws: StoregateError.self) { try await apply(manifest(bundleId: value)) }
            }
            for value in Self.invalidText {
                await #expect(throws: StoregateError.self) { try await apply(manifest(name: value)) }
            }
            // The last app's key is not P-256 PKCS#8: everything before it is rolled back too.
            do {
                try await apply(manifest(secondKeyEnv: "BAD_P8"))
                Issue.record("a bad key was accepted")
            } catch let error as StoregateError {
                #expect(
                    error
                        == .invalid(
                            field: "apps[1].keys[0].p8", reason: "the key is not PKCS#8: App Store Connect .p8 files begin with -----BEGIN PRIVATE KEY-----"))
            }
            #expect(throws: StoregateError.invalid(field: "apps[0].bundleID", reason: "is not a known field")) {
                try TenantManifest.parse(yaml: "slug: abc\nname: x\napps:\n  - bundleID: com.example.x\n")
            }
            #expect(try await capabilities.tenants.list().isEmpty, "nothing half-created")

            try await apply(manifest())
            #expect(try await capabilities.tenants.list().map(\.slug) == ["manifest"])
        }
    }

    static func yamlString(_ value: String) -> String {
        // A double-quoted YAML scalar with every character escaped that could end it.
        "\""
            + value.unicodeScalars.map { scalar in
                switch scalar {
                case "\"": "\\\""
                case "\\": "\\\\"
                case _ where scalar.value < 0x20: String(format: "\\x%02x", scalar.value)
                default: String(scalar)
                }
            }.joined() + "\""
    }
}
