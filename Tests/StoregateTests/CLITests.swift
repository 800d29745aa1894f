import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Crypto
import Foundation
import KeyVault
import Storegate
import Testing

/// The `storegate` binary, run as an admin would.
@Suite struct CLITests {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("storegate").path

    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func storegate(_ arguments: [String], environment: [String: String]) async throws -> Run {
        let run = try await Subprocess.run(
            binary, arguments, environment: environment.merging(["PATH": "/usr/bin:/bin", "STOREGATE_LOG_LEVEL": "warning"]) { a, _ in a })
        return Run(status: run.status, stdout: run.stdout, stderr: run.stderr)
    }

    /// A catalog from the manifest: set once (the same manifest again changes nothing), an entitlement no
    /// product unlocks printed as a warning, and a product of an app the tenant lacks refused with its path.
    @Test func aCatalogFromTheManifest() async throws {
        try await TestDatabase.with { capabilities, url in
            let scratch = try ScratchFolder()
            defer { scratch.remove() }
            let env = ["STOREGATE_DATABASE_URL": url, "STOREGATE_MASTER_KEY": MasterKey.generate()]
            func manifest(_ bundleId: String) throws -> String {
                try scratch.write(
                    "cataloged.yaml",
                    """
                    slug: cataloged
                    name: Cataloged
                    apps:
                      - bundleId: com.example.cataloged
                        environments: [Sandbox]
                    catalog:
                      products:
                        - {bundleId: \(bundleId), productId: com.example.monthly, type: Auto-Renewable Subscription, subscriptionGroup: pro, displayName: Monthly}
                      entitlements:
                        - {name: pro, description: Everything, productIds: [com.example.monthly]}
                        - {name: beta, description: Support grants it, productIds: []}
                    """)
            }
            let applied = try await Self.storegate(["tenant", "apply", try manifest("com.example.cataloged")], environment: env)
            #expect(applied.status == 0 && applied.stdout.contains("catalog: 1 products, 2 entitlements set"), "\(applied.stdout)\(applied.stderr)")
            #expect(applied.stdout.contains("warning: catalog.entitlements[1] (beta) is unlocked by no product"), "\(applied.stdout)")
            let again = try await Self.storegate(["tenant", "apply", try manifest("com.example.cataloged")], environment: env)
            #expect(again.status == 0 && !again.stdout.contains("catalog:"), "\(again.stdout)")
            let tenant = try await capabilities.tenants.get(slug: "cataloged")
            #expect(try await capabilities.catalog.catalog(tenant: tenant).entitlements.map(\.name) == ["pro", "beta"])

            let refused = try await Self.storegate(["tenant", "apply", try manifest("com.example.other")], environment: env)
            #expect(refused.status != 0 && refused.stderr.contains("catalog.products[0].bundleId"), "\(refused.stderr)")
        }
    }

    /// `storegate customer delete`: refused without --yes, erases with it (audited as the CLI), and says
    /// so plainly when nothing is held.
    @Test func aCustomerErasedFromTheCommandLine() async throws {
        try await TestDatabase.with { capabilities, url in
            let env = ["STOREGATE_DATABASE_URL": url, "STOREGATE_MASTER_KEY": MasterKey.generate()]
            let made = try await Fixtures.tenant(capabilities, slug: "erasing", bundleId: "com.example.erasing")
            _ = try await capabilities.accounts.ensure(tenant: made.tenant.tenant, customerId: "leaving", actor: Actor("test"))
            let arguments = ["customer", "delete", "--tenant", "erasing", "--customer-id", "leaving"]
            let unconfirmed = try await Self.storegate(arguments, environment: env)
            #expect(unconfirmed.status == 2 && unconfirmed.stderr.contains("cannot be undone: add --yes"), "\(unconfirmed.stderr)")
            let erased = try await Self.storegate(arguments + ["--yes"], environment: env)
            #expect(erased.status == 0 && erased.stdout.hasPrefix("erased as ers_"), "\(erased.stdout)\(erased.stderr)")
            let again = try await Self.storegate(arguments + ["--yes"], environment: env)
            #expect(again.status == 0 && again.stdout.contains("nothing held for leaving"), "\(again.stdout)\(again.stderr)")
            let audit = try await capabilities.audit.list(tenant: made.tenant.tenant, filter: AuditFilter(action: "customer.delete"), before: nil, limit: 10)
            #expect(audit.entries.first?.actor.hasPrefix("cli:") == true, "\(audit)")
        }
    }

    /// An app's retention rules from its manifest and from `storegate app retention rules`: set, printed, and
    /// a misspelt member refused with its path, as `retention.rules.set` refuses it.
    @Test func retentionRulesFromTheManifestAndTheCommandLine() async throws {
        try await TestDatabase.with { _, url in
            let scratch = try ScratchFolder()
            defer { scratch.remove() }
            let directory = scratch.url
            let env = ["STOREGATE_DATABASE_URL": url, "STOREGATE_MASTER_KEY": MasterKey.generate()]
            func manifest(_ rules: String) throws -> String {
                try scratch.write(
                    "retainer.yaml",
                    """
                    slug: retainer
                    name: Retainer
                    apps:
                      - bundleId: com.example.retainer
                        environments: [Sandbox]
                        retentionRules:
                    \(rules)
                    """)
            }
            let rules = """
                      - name: loyal
                        when: {productIds: [com.example.monthly], locales: [en, "no"], minTenureDays: 90, refunded: false}
                        answer: {promotionalOffer: {offerIdentifier: STAY50, signatureVersion: V1}}
                      - name: switch
                        answer: {alternateProduct: {productId: com.example.yearly, billingPlanType: MONTHLY}}
                """
            let applied = try await Self.storegate(["tenant", "apply", try manifest(rules)], environment: env)
            #expect(applied.status == 0 && applied.stdout.contains("app com.example.retainer: 2 retention rules set"), "\(applied.stdout)\(applied.stderr)")
            let again = try await Self.storegate(["tenant", "apply", try manifest(rules)], environment: env)
            #expect(again.status == 0 && !again.stdout.contains("retention rules set"), "the same rules again change nothing: \(again.stdout)")
            let app = ["--tenant", "retainer", "--bundle-id", "com.example.retainer"]
            let printed = try await Self.storegate(["app", "retention", "rules", "get"] + app, environment: env)
            let stored = try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [[String: Any]]
            #expect(stored?.map { $0["name"] as? String } == ["loyal", "switch"], "\(printed.stdout)")
            #expect(((stored?.first?["when"] as? [String: Any])?["locales"] as? [String]) == ["en", "no"], "YAML's no stays a locale")

            let misspelt = try await Self.storegate(
                ["tenant", "apply", try manifest(rules.replacingOccurrences(of: "minTenureDays", with: "minTenure"))], environment: env)
            #expect(misspelt.status == 1 && misspelt.stderr.contains("apps[0].retentionRules[0].when.minTenure"), "\(misspelt.stderr)")

            let file = directory.appendingPathComponent("rules.json").path
            try #"[{"name": "calm", "answer": {"message": {"messageIdentifier": "0b1f6a0e-3c52-4c39-8a55-0d6b8f3a9c11"}}}]"#
                .write(toFile: file, atomically: true, encoding: .utf8)
            let set = try await Self.storegate(["app", "retention", "rules", "set", "--file", file] + app, environment: env)
            #expect(set.status == 0 && set.stdout.contains("1 retention rules set"), "\(set.stdout)\(set.stderr)")
            #expect(try await Self.storegate(["app", "retention", "rules", "get"] + app, environment: env).stdout.contains("\"calm\""))
            try #"[{"name": "calm", "answer": {"mesage": {}}}]"#.write(toFile: file, atomically: true, encoding: .utf8)
            let unknown = try await Self.storegate(["app", "retention", "rules", "set", "--file", file] + app, environment: env)
            #expect(unknown.status == 1 && unknown.stderr.contains("rules[0].answer.mesage"), "\(unknown.stderr)")
        }
    }

    @Test func applyTwiceGivesTheSameStateAndPrintsTheKeyOnce() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary), "build the storegate product first")
        try await TestDatabase.with(migrate: false) { _, url in
            let scratch = try ScratchFolder()
            defer { scratch.remove() }
            let directory = scratch.url
            let pem = Fixtures.p8()
            try pem.write(to: directory.appendingPathComponent("AuthKey_CLITEST001.p8"), atomically: true, encoding: .utf8)
            let manifest = directory.appendingPathComponent("studio.yaml")
            try """
            slug: studio
            name: Studio
            apiKeys: [{label: backend}]
            apps:
              - bundleId: com.example.studio
                appAppleId: 99
                environments: [Sandbox]
                keys: [{keyId: CLITEST001, issuerId: \(Fixtures.issuerId), p8File: AuthKey_CLITEST001.p8}]
            webhooks:
              - {url: "https://93.184.215.14/studio-events", eventTypes: [refund.granted], bundleId: com.example.studio}
            """.write(to: manifest, atomically: true, encoding: .utf8)
            let env = ["STOREGATE_DATABASE_URL": url, "STOREGATE_MASTER_KEY": MasterKey.generate(), "STOREGATE_PUBLIC_URL": "https://storegate.example.com"]

            let notMigrated = try await Self.storegate(["tenant", "list"], environment: env)
            #expect(notMigrated.status != 0)
            #expect(notMigrated.stderr.contains("run `storegate migrate`"))
            #expect(try await Self.storegate(["migrate"], environment: env).stdout.contains("control schema: applied 1"))

            let first = try await Self.storegate(["tenant", "apply", manifest.path], environment: env)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stderr.isEmpty, "a command that succeeds prints nothing on stderr (no pool warnings)")
            let quiet = try await Self.storegate(["tenant", "list"], environment: env)
            #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
            #expect(first.stdout.contains("tenant studio: created"))
            #expect(first.stdout.contains("shown once"))
            let apiKey = first.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("sg_") }
            #expect(apiKey?.count == 54)
            #expect(first.stdout.contains("https://storegate.example.com/apple/notifications/"))
            #expect(first.stdout.contains("webhook https://93.184.215.14/studio-events: added"))
            #expect(first.stdout.contains("whsec_"), "the webhook's secret, once")
            let stateAfterFirst = try await Self.storegate(["tenant", "show", "studio"], environment: env)

            let second = try await Self.storegate(["tenant", "apply", manifest.path], environment: env)
            #expect(second.status == 0)
            #expect(second.stdout.contains("tenant studio: unchanged"))
            #expect(!second.stdout.contains("sg_"), "the API key is printed only the first time")
            #expect(!second.stdout.contains("whsec_"), "the webhook secret is printed only the first time")

            // The endpoint the manifest declared; one the CLI refuses (http, loopback); removal.
            let listed = try await Self.storegate(["webhook", "list", "--tenant", "studio"], environment: env)
            #expect(listed.stdout.contains("https://93.184.215.14/studio-events\trefund.granted"), "\(listed.stdout)")
            let endpointId = try #require(listed.stdout.split(separator: "\t").first.map(String.init))
            let refused = try await Self.storegate(["webhook", "add", "--tenant", "studio", "--url", "http://127.0.0.1:9/x"], environment: env)
            #expect(refused.status == 1 && refused.stderr.contains("url"), "\(refused.stderr)")
            #expect(try await Self.storegate(["webhook", "remove", "--tenant", "studio", "--id", endpointId], environment: env).status == 0)
            #expect(try await Self.storegate(["webhook", "list", "--tenant", "studio"], environment: env).stdout.contains("no webhook endpoints"))
            #expect(try await Self.storegate(["tenant", "apply", manifest.path], environment: env).stdout.contains("whsec_"), "re-added by apply")
            #expect(try await Self.storegate(["tenant", "show", "studio"], environment: env).stdout == stateAfterFirst.stdout)

            let export = try await Self.storegate(["tenant", "export", "studio"], environment: env)
            #expect(export.status == 0)
            #expect(export.stdout.contains("CLITEST001"))
            #expect(!export.stdout.contains("PRIVATE KEY") && !export.stdout.contains(String(pem.split(separator: "\n")[1])))
            #expect(!first.stdout.contains(String(pem.split(separator: "\n")[1])))

            let wrongConfirm = try await Self.storegate(["tenant", "delete", "studio", "--confirm", "other"], environment: env)
            #expect(wrongConfirm.status == 1)
            #expect(wrongConfirm.stderr.contains("confirm"))
            let badKey = try await Self.storegate(
                [
                    "app", "key", "import", "--tenant", "studio", "--bundle-id", "com.example.studio", "--p8", manifest.path, "--key-id", "OTHER00001",
                    "--issuer-id", Fixtures.issuerId,
                ],
                environment: env)
            #expect(badKey.status == 1)
            #expect(badKey.stderr.contains("not a PEM private key"))
            #expect(try await Self.storegate(["tenant", "delete", "studio", "--confirm", "studio"], environment: env).status == 0)
            #expect(try await Self.storegate(["tenant", "list"], environment: env).stdout.contains("no tenants"))

            for command in [
                ["--help"], ["tenant", "apply", "--help"], ["app", "key", "import", "--help"], ["keys", "rotate-master", "--help"], ["serve", "--help"],
            ] {
                let help = try await Self.storegate(command, environment: env)
                #expect(help.status == 0)
                #expect(help.stdout.contains("USAGE"))
            }
            #expect(try await Self.storegate(["tenant", "bogus"], environment: env).status != 0)
        }
    }

    /// Messages say what is wrong with which value, and the export reads as data: lowercase UUIDs, audit
    /// details as JSON objects, the effective user as the actor.
    @Test func messagesNameTheValueAndTheExportIsData() async throws {
        try await TestDatabase.with(migrate: false) { _, url in
            let scratch = try ScratchFolder()
            defer { scratch.remove() }
            let directory = scratch.url
            let p8 = directory.appendingPathComponent("AuthKey_MSGTEST001.p8")
            try Fixtures.p8().write(to: p8, atomically: true, encoding: .utf8)
            let masterKey = MasterKey.generate()
            let env = ["STOREGATE_DATABASE_URL": url, "STOREGATE_MASTER_KEY": masterKey]
            #expect(try await Self.storegate(["migrate"], environment: env).status == 0)
            #expect(try await Self.storegate(["tenant", "create", "messages", "--name", "Messages"], environment: env).status == 0)
            #expect(try await Self.storegate(["app", "add", "--tenant", "messages", "--bundle-id", "com.example.messages"], environment: env).status == 0)

            let unknown = try await Self.storegate(["tenant", "show", "nosuch"], environment: env)
            #expect(unknown.status == 1 && unknown.stderr.contains(#"no such tenant "nosuch""#), "\(unknown.stderr)")

            func importKey(_ file: String, env: [String: String]) async throws -> Run {
                try await Self.storegate(
                    [
                        "app", "key", "import", "--tenant", "messages", "--bundle-id", "com.example.messages", "--p8", file, "--key-id", "MSGTEST001",
                        "--issuer-id", Fixtures.issuerId,
                    ], environment: env)
            }
            let missingFile = try await importKey(directory.appendingPathComponent("nope.p8").path, env: env)
            #expect(missingFile.status == 1 && missingFile.stderr.contains("no such file: "), "\(missingFile.stderr)")
            var noMasterKey = env
            noMasterKey["STOREGATE_MASTER_KEY"] = nil
            let missingKey = try await importKey(p8.path, env: noMasterKey)
            #expect(missingKey.status == 1 && missingKey.stderr.contains("no master key: set STOREGATE_MASTER_KEY"), "\(missingKey.stderr)")

            #expect(try await importKey(p8.path, env: env).status == 0)
            #expect(try await importKey(p8.path, env: env).status == 0, "the same key again, with the same master key, changes nothing")
            let absent = try await importKey(p8.path, env: noMasterKey)
            #expect(absent.status == 1 && absent.stderr.contains("no master key"), "an identical key fails without the master key: \(absent.stderr)")
            var otherMasterKey = env
            otherMasterKey["STOREGATE_MASTER_KEY"] = MasterKey.generate()
            let wrong = try await importKey(p8.path, env: otherMasterKey)
            #expect(wrong.status == 1 && wrong.stderr.contains("master key"), "an identical key fails with another master key: \(wrong.stderr)")

            let export = try await Self.storegate(["tenant", "export", "messages"], environment: env)
            #expect(export.status == 0)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
            let tenantId = try #require((document["tenant"] as? [String: Any])?["id"] as? String)
            #expect(tenantId == tenantId.lowercased() && UUID(uuidString: tenantId) != nil)
            let app = try #require((document["apps"] as? [[String: Any]])?.first)
            #expect((app["id"] as? String).map { $0 == $0.lowercased() } == true)
            #expect(((app["keys"] as? [[String: Any]])?.first?["issuerId"] as? String) == Fixtures.issuerId.lowercased())
            let audit = try #require(document["auditLog"] as? [[String: Any]])
            let created = try #require(audit.first { $0["action"] as? String == "tenant.create" })
            #expect((created["detail"] as? [String: Any])?["slug"] as? String == "messages", "the detail is an object: \(created)")
            #expect(created["actor"] as? String == "cli:" + NSUserName())
            #expect(audit.allSatisfy { $0["actor"] as? String != "cli:unknown" })
        }
    }

    /// A database that cannot be reached fails with where it is and PostgreSQL's own reason, without waiting
    /// out retries or a readiness loop. (The bound is far above the ~1 s this takes on an idle machine: it
    /// catches a wait, it does not measure speed; a debug CLI launched beside the parallel suite took 9 s.)
    /// `storegate simulator register` tells a running simulator a tenant's app, its key's public half and its
    /// notification URL: the simulator then sells in that app and accepts tokens signed with the key.
    @Test func simulatorRegisterTellsTheSimulatorATenantsApps() async throws {
        try await SimulatorHarness.with { sim in
            try await TestDatabase.with { capabilities, url in
                let (caller, _, _) = try await Fixtures.tenant(capabilities, slug: "registered", bundleId: "com.example.registered")
                let key = P256.Signing.PrivateKey()
                _ = try await capabilities.apps.importKey(
                    tenant: caller.tenant, bundleId: "com.example.registered", keyId: "REGKEY0001", issuerId: Fixtures.issuerId,
                    p8: key.pemRepresentation, actor: Actor("test"))
                let run = try await Self.storegate(
                    ["simulator", "register", "--simulator", sim.baseURL, "--tenant", "registered"],
                    environment: ["STOREGATE_DATABASE_URL": url, "STOREGATE_PUBLIC_URL": "http://127.0.0.1:8080"])
                #expect(run.status == 0, "\(run.stderr)")
                #expect(
                    run.stdout.contains(
                        "registered com.example.registered (Sandbox) with 1 key(s), notifications to http://127.0.0.1:8080/apple/notifications/"))
                let bought = try await sim.simulator.purchase(
                    SimulatorStore.Purchase(customer: "reg", bundleId: "com.example.registered", productId: "p", type: .consumable))
                let client = AppStoreServerAPIClient(
                    http: .shared,
                    token: AppStoreServerAPIToken(
                        key: SigningKey(keyId: "REGKEY0001", issuerId: Fixtures.issuerId, bundleId: "com.example.registered", privateKey: key)),
                    environment: .custom(sim.baseURL), retry: .none)
                #expect(try await client.getTransactionInfo(transactionId: try #require(bought.transactionId)).signedTransactionInfo != nil)
            }
        }
    }

    /// `serve` and `simulator` on a port something else listens on fail in one line naming the address.
    @Test func aPortInUseIsNamedInOneLine() async throws {
        try await SimulatorHarness.with { sim in
            let port = try #require(URLComponents(string: sim.baseURL)?.port)
            try await TestDatabase.with { _, url in
                for (command, name) in [
                    (["serve", "--port", "\(port)", "--no-ocsp"], "storegate serve"), (["simulator", "--port", "\(port)"], "storegate simulator"),
                ] {
                    let run = try await Self.storegate(command, environment: ["STOREGATE_DATABASE_URL": url])
                    #expect(run.status == 1, "\(command): \(run.stderr)")
                    #expect(
                        run.stderr.hasSuffix(
                            "storegate: error: \(name) cannot listen on 127.0.0.1:\(port): the port is in use (stop what listens there, or choose another with --port)\n"
                        ), "\(run.stderr)")
                }
            }
        }
    }

    @Test func anUnreachableDatabaseFailsFastNamingWhereAndWhy() async throws {
        let port = try FreePort.find()
        let admin = try #require(URLComponents(string: TestDatabase.adminURL))
        let host = admin.host ?? "127.0.0.1"
        let cases: [(url: String, expected: String)] = [
            ("postgres://storegate@127.0.0.1:\(port)/storegate?sslmode=disable", "cannot reach PostgreSQL at 127.0.0.1:\(port)/storegate: connection refused"),
            (
                "postgres://storegate@\(host):\(admin.port ?? 5432)/no_such_db?sslmode=disable",
                "cannot reach PostgreSQL at \(host):\(admin.port ?? 5432)/no_such_db: database \"no_such_db\" does not exist"
            ),
            (
                "postgres://no_such_role@\(host):\(admin.port ?? 5432)/storegate?sslmode=disable",
                "cannot reach PostgreSQL at \(host):\(admin.port ?? 5432)/storegate: role \"no_such_role\" does not exist"
            ),
        ]
        for (url, expected) in cases {
            let start = ContinuousClock.now
            let run = try await Self.storegate(["tenant", "list"], environment: ["STOREGATE_DATABASE_URL": url])
            #expect(ContinuousClock.now - start < .seconds(30), "took \(ContinuousClock.now - start)")
            #expect(run.status == 1)
            #expect(run.stderr == "storegate: error: \(expected)\n", "\(run.stderr)")
        }
    }
}

/// A folder of the test's own under the temporary directory.
struct ScratchFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("storegate-cli-\(UUID())")

    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` as `name` in the folder; returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        let path = url.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
