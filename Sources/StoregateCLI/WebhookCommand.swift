import AppStoreServer
import ArgumentParser
import Foundation
import Storegate

struct WebhookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook", abstract: "List, add, remove and test the endpoints a tenant's events are sent to.",
        subcommands: [List.self, Add.self, Remove.self, Test.self])

    static func line(_ endpoint: WebhookEndpointInfo) -> String {
        let types = endpoint.eventTypes.isEmpty ? "all events" : endpoint.eventTypes.map(\.rawValue).joined(separator: ",")
        let status = endpoint.failingSince.map { "failing since \(ISO8601DateFormatter().string(from: $0))" } ?? "active"
        return "\(endpoint.id)\t\(endpoint.url)\t\(types)\t\(endpoint.bundleId ?? "every app")\t\(endpoint.environment ?? "any environment")\t\(status)"
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a tenant's webhook endpoints.")
        @OptionGroup var tenant: TenantOption

        func run() async throws {
            try await tenant.list(none: "no webhook endpoints") {
                try await $0.webhooks.list(tenant: $1)
            } line: {
                [WebhookCommand.line($0)]
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an endpoint; prints its signing secret, once.")
        @OptionGroup var tenant: TenantOption
        @Option(help: "The https URL events are POSTed to.") var url: String
        @Option(name: .customLong("event"), help: "Only this event type; repeat for more (default: all).") var eventTypes: [String] = []
        @Option(help: "Only this app's events.") var bundleId: String?
        @Option(help: "Only Production or only Sandbox events.") var environment: String?
        @Option(help: "A note for people.") var description = ""
        @Flag(help: "Accept an http URL or a loopback/private address (a receiver on this machine). Development only.")
        var allowPrivateWebhookUrls = false

        func run() async throws {
            let spec = WebhookEndpointSpec(url: url, description: description, eventTypes: eventTypes, bundleId: bundleId, environment: environment)
            let allowPrivate = allowPrivateWebhookUrls
            let created = try await tenant.run { capabilities, tenant in
                let webhooks = allowPrivate ? capabilities.webhooks.allowingPrivateURLs() : capabilities.webhooks
                return try await webhooks.create(tenant: tenant, spec, actor: .cli)
            }
            print("added \(WebhookCommand.line(created))")
            print("signing secret (shown once): \(created.secret ?? "")")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an endpoint with its secrets and deliveries.")
        @OptionGroup var tenant: TenantOption
        @Option(help: "The endpoint's id (we_…).") var id: String

        func run() async throws {
            let id = id
            try await tenant.run { capabilities, tenant in try await capabilities.webhooks.delete(tenant: tenant, id: id, actor: .cli) }
            print("removed \(id)")
        }
    }

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send a signed webhook.test message to an endpoint now.")
        @OptionGroup var tenant: TenantOption
        @Option(help: "The endpoint's id (we_…).") var id: String

        func run() async throws {
            let id = id
            let result = try await tenant.run { capabilities, tenant in try await capabilities.webhooks.test(tenant: tenant, id: id) }
            let answer = result.statusCode.map { "answered \($0)" } ?? (result.error ?? "no answer")
            print("\(answer) in \(result.latencyMilliseconds) ms")
            if !(result.statusCode.map { (200..<300).contains($0) } ?? false) { throw ExitCode(1) }
        }
    }
}
