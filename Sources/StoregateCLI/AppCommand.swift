import AppStoreServer
import ArgumentParser
import Foundation
import Storegate
import StoregatePostgres

struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app", abstract: "Add, list and remove a tenant's apps, import their keys, and manage their Retention Messaging.",
        subcommands: [Add.self, List.self, Remove.self, Key.self, RetentionCommand.self, TransactionCommand.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an app to a tenant.")
        @OptionGroup var tenant: TenantOption
        @Option(help: "The app's bundle ID.") var bundleId: String
        @Option(help: "The app's Apple ID (App Store Connect → App Information).") var appAppleId: Int64?
        @Option(name: .customLong("environment"), help: "Production or Sandbox; repeat for both (default: both).") var environments: [String] = []

        func run() async throws {
            let (bundleId, appAppleId) = (bundleId, appAppleId)
            let environments = environments.isEmpty ? Validate.environments.map(\.rawValue) : environments
            let app = try await tenant.run { capabilities, tenant in
                try await capabilities.apps.add(tenant: tenant, bundleId: bundleId, appAppleId: appAppleId, environments: environments, actor: .cli)
            }
            print("added app \(app.app.bundleId)")
            printNotificationURLs([app])
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a tenant's apps.")
        @OptionGroup var tenant: TenantOption

        func run() async throws {
            try await tenant.list(none: "no apps") {
                try await $0.apps.list(tenant: $1)
            } line: { app in
                [
                    app.app.bundleId, app.app.appAppleId.map(String.init) ?? "-", app.app.environments.map(\.rawValue).joined(separator: ","),
                    "keys: " + app.keys.map(\.keyId).joined(separator: ","),
                ]
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an app and destroy its keys.")
        @OptionGroup var tenant: TenantOption
        @Option(help: "The app's bundle ID.") var bundleId: String

        func run() async throws {
            let bundleId = bundleId
            try await tenant.run { capabilities, tenant in
                try await capabilities.apps.remove(tenant: tenant, bundleId: bundleId, actor: .cli)
            }
            print("removed app \(bundleId)")
        }
    }

    struct Key: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Import App Store Connect keys.", subcommands: [Import.self])

        struct Import: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Import an In-App Purchase key (.p8) for an app. The key is sealed at once and never printed.")
            @OptionGroup var tenant: TenantOption
            @Option(help: "The app's bundle ID.") var bundleId: String
            @Option(help: "The .p8 file downloaded from App Store Connect.") var p8: String
            @Option(help: "The key ID (10 characters).") var keyId: String
            @Option(help: "The issuer ID (a UUID) from App Store Connect → Users and Access → Integrations.") var issuerId: String

            func run() async throws {
                guard FileManager.default.fileExists(atPath: p8) else { throw Runtime.fail("no such file: \(p8)") }
                guard let pem = try? String(contentsOfFile: p8, encoding: .utf8) else { throw Runtime.fail("cannot read \(p8) as a UTF-8 file") }
                let (bundleId, keyId, issuerId) = (bundleId, keyId, issuerId)
                let key = try await tenant.run { capabilities, tenant in
                    try await capabilities.apps.importKey(
                        tenant: tenant, bundleId: bundleId, keyId: keyId, issuerId: issuerId, p8: pem, actor: .cli)
                }
                print("key \(key.keyId) stored for \(bundleId) (\(key.kind.rawValue))")
            }
        }
    }
}

struct APIKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apikey", abstract: "Issue, list and revoke a tenant's API keys.", subcommands: [Issue.self, List.self, Revoke.self])

    struct Issue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Issue an API key: it is printed once and stored only as a hash.")
        @OptionGroup var tenant: TenantOption
        @Option(help: "What the key is for, e.g. backend-prod.") var label: String

        func run() async throws {
            let label = label
            let issued = try await tenant.run { capabilities, tenant in
                try await capabilities.apiKeys.issue(tenant: tenant, label: label, actor: .cli)
            }
            print("API key \"\(issued.record.label)\" (shown once; store it now):\n  \(issued.secret)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a tenant's API keys by prefix.")
        @OptionGroup var tenant: TenantOption

        func run() async throws {
            try await tenant.list(none: "no API keys") {
                try await $0.apiKeys.list(tenant: $1)
            } line: { key in
                let state = key.revokedAt.map { "revoked \($0.formatted(.iso8601))" } ?? "active"
                return [key.prefix, state, "last used \(key.lastUsedAt?.formatted(.iso8601) ?? "never")", key.label]
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke an API key; servers refuse it within seconds.")
        @OptionGroup var tenant: TenantOption
        @Argument(help: "The key's visible prefix, e.g. sg_4f2k9x7q1m.") var prefix: String

        func run() async throws {
            let prefix = prefix
            try await tenant.run { capabilities, tenant in
                try await capabilities.apiKeys.revoke(tenant: tenant, prefix: prefix, actor: .cli)
            }
            print("revoked \(prefix)")
        }
    }
}

struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Master keys that seal the app keys at rest.", subcommands: [GenerateMaster.self, RotateMaster.self])

    struct GenerateMaster: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a new random master key (32 bytes, base64) for STOREGATE_MASTER_KEY.")
        func run() async throws { print(KeyVaultFacade.generateMasterKey()) }
    }

    struct RotateMaster: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Re-wrap every stored key under the active master key.",
            discussion: """
                Set STOREGATE_MASTER_KEY to the new key and STOREGATE_PREVIOUS_MASTER_KEYS to the old one, run this, \
                then drop the old key: nothing needs it any more.
                """)

        func run() async throws {
            let count = try await Runtime.run { try await $0.rotateMasterKey(actor: .cli) }
            print("re-wrapped \(count) key(s)")
        }
    }
}
