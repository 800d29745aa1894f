import AppStoreServer
import ArgumentParser
import Foundation
import Storegate
import StoregatePostgres
import StoregateServer
import Yams

struct TenantCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tenant", abstract: "Create, apply, inspect, suspend, export and delete tenants.",
        subcommands: [Create.self, Apply.self, List.self, Show.self, Suspend.self, Resume.self, Delete.self, Export.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a tenant and its schema.")
        @Argument(help: "Lowercase slug: 3-40 characters of a-z, 0-9 and '-'.") var slug: String
        @Option(help: "Display name.") var name: String

        func run() async throws {
            let (slug, name) = (slug, name)
            let tenant = try await Runtime.run { try await $0.tenants.create(slug: slug, name: name, actor: .cli) }
            print("created tenant \(tenant.slug) (\(tenant.id.uuidString.lowercased()))")
        }
    }

    struct Apply: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create or update a tenant, its apps, keys and API keys from a manifest (tenants/README.md).",
            discussion: "Idempotent: a second run with the same manifest changes nothing. A new API key is printed once.")
        @Argument(help: "One or more manifests, e.g. tenants/demo.yaml; each is applied in its own transaction.") var files: [String]
        @Flag(help: "Accept webhook URLs that are http or reach a loopback/private address (a receiver on this machine). Development only.")
        var allowPrivateWebhookUrls = false

        func run() async throws {
            var manifests: [(TenantManifest, URL)] = []
            for file in files {
                let url = URL(fileURLWithPath: file)
                guard let text = try? String(contentsOf: url, encoding: .utf8) else { throw Runtime.fail("cannot read \(file) as UTF-8 text") }
                do {
                    manifests.append((try TenantManifest.parse(yaml: text), url))
                } catch {
                    throw Runtime.fail("\(file): \(error.description)")
                }
            }
            let list = manifests
            let allowPrivate = allowPrivateWebhookUrls
            try await Runtime.run { capabilities in
                let applier = ManifestApplier(capabilities: capabilities, webhooks: allowPrivate ? capabilities.webhooks.allowingPrivateURLs() : nil)
                for (manifest, url) in list {
                    let result = try await applier.apply(
                        manifest, baseDirectory: url.deletingLastPathComponent(), environment: Runtime.environment, actor: .cli)
                    print(result.changes.isEmpty ? "tenant \(result.tenant.slug): unchanged" : result.changes.joined(separator: "\n"))
                    for warning in result.warnings { print("warning: \(warning)") }
                    for key in result.issuedKeys {
                        print("\nAPI key \"\(key.record.label)\" (shown once; store it now):\n  \(key.secret)")
                    }
                    for webhook in result.createdWebhooks {
                        print("\nwebhook \(webhook.endpoint.displayId) \(webhook.endpoint.url) signing secret (shown once; store it now):\n  \(webhook.secret)")
                    }
                    printNotificationURLs(result.apps)
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List tenants.")

        func run() async throws {
            Runtime.printLines(try await Runtime.run { try await $0.tenants.list() }, none: "no tenants") { t in
                [t.slug, t.status.rawValue, "schema v\(t.schemaVersion)", t.name]
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a tenant, its apps, keys and API keys.")
        @Argument(help: "The tenant's slug.") var slug: String

        func run() async throws {
            let slug = slug
            let (tenant, apps, keys) = try await Runtime.run { capabilities in
                let tenant = try await capabilities.tenants.get(slug: slug)
                return (tenant, try await capabilities.apps.list(tenant: tenant), try await capabilities.apiKeys.list(tenant: tenant))
            }
            print(
                "tenant \(tenant.slug): \(tenant.name)\n  id \(tenant.id.uuidString.lowercased())\n  status \(tenant.status.rawValue)\n  schema \(tenant.storageName) v\(tenant.schemaVersion)"
            )
            for key in keys { print("  api key \(key.prefix) \"\(key.label)\"\(key.revokedAt == nil ? "" : " (revoked)")") }
            for app in apps {
                print("  app \(app.app.bundleId)\(app.app.appAppleId.map { " (\($0))" } ?? "") \(app.app.environments.map(\.rawValue).joined(separator: ", "))")
                for key in app.keys { print("    key \(key.keyId) \(key.kind.rawValue) issuer \(key.issuerId.uuidString.lowercased())") }
            }
            printNotificationURLs(apps)
        }
    }

    struct Suspend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Suspend a tenant: its API keys are refused until it is resumed.")
        @Argument var slug: String
        func run() async throws { try await TenantCommand.set(slug, .suspended) }
    }

    struct Resume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Resume a suspended tenant.")
        @Argument var slug: String
        func run() async throws { try await TenantCommand.set(slug, .active) }
    }

    /// Suspends or resumes a tenant, and says what it is now.
    static func set(_ slug: String, _ status: Tenant.Status) async throws {
        let tenant = try await Runtime.run { try await $0.tenants.setStatus(slug: slug, status, actor: .cli) }
        print("tenant \(tenant.slug): \(tenant.status.rawValue)")
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a tenant: drop its schema and destroy its key material.")
        @Argument var slug: String
        @Option(help: "Repeat the slug to confirm.") var confirm: String

        func run() async throws {
            let (slug, confirm) = (slug, confirm)
            try await Runtime.run { try await $0.tenants.delete(slug: slug, confirm: confirm, actor: .cli) }
            print("deleted tenant \(slug)")
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Export all of a tenant's data as JSON (never private keys).")
        @Argument var slug: String
        @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?

        func run() async throws {
            let slug = slug
            let data = try await Runtime.run { try await $0.tenants.export(slug: slug) }
            if let output {
                try data.write(to: URL(fileURLWithPath: output))
            } else {
                FileHandle.standardOutput.write(data)
            }
        }
    }
}

func printNotificationURLs(_ apps: [AppDetails]) {
    let rows = apps.flatMap { app in
        app.notificationURLs.map { (app.app.bundleId, $0.environment.rawValue, AppleEndpoint.notifications.url(publicURL: Runtime.publicURL, token: $0.token)) }
    }
    guard !rows.isEmpty else { return }
    print("\nApp Store Server Notifications V2 URLs (App Store Connect → App Information):")
    for (bundleId, environment, url) in rows { print("  \(bundleId)  \(environment.padding(toLength: 10, withPad: " ", startingAt: 0))  \(url)") }
}
