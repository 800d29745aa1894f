import AppStoreServer
import ArgumentParser
import Foundation
import JSONRPC
import Storegate

/// `storegate app retention …`: an app's Retention Messaging, as the `retention.*` methods manage it. What
/// Apple answers is printed as JSON.
struct RetentionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retention",
        abstract: "An app's Retention Messaging: its rules, images, messages, default messages, realtime URL and Apple's performance test.",
        subcommands: [Rules.self, Images.self, Messages.self, Defaults.self, RealtimeURL.self, PerformanceTest.self])

    struct AppTarget: ParsableArguments {
        @OptionGroup var tenant: TenantOption
        @Option(help: "The app's bundle ID.") var bundleId: String
        @Option(help: "Production or Sandbox (default: Production when the app has it).") var environment: String?

        func target(_ capabilities: Capabilities) async throws -> RetentionMessagingService.Target {
            RetentionMessagingService.Target(
                tenant: try await capabilities.tenants.get(slug: tenant.tenant), bundleId: bundleId,
                environment: environment.map(AppStoreEnvironment.init(rawValue:)))
        }
    }

    static func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    static func read(_ path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else { throw Runtime.fail("cannot read \(path)") }
        return data
    }

    static func uuid(_ value: String?, option: String) throws -> UUID? {
        guard let value else { return nil }
        guard let uuid = UUID(uuidString: value) else { throw Runtime.fail("--\(option) must be a UUID") }
        return uuid
    }

    struct Rules: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set or print how Apple's Get Retention Message requests are answered (docs/API.md, Retention Messaging).",
            subcommands: [Set.self, Get.self])

        struct Set: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Replace the app's rules with a JSON file's: an array of rules (empty: none).")
            @OptionGroup var tenant: TenantOption
            @Option(help: "The app's bundle ID.") var bundleId: String
            @Option(help: "The JSON file holding the rules.") var file: String

            func run() async throws {
                let data = try RetentionCommand.read(file)
                let raw: JSONValue
                do { raw = try JSONDecoder().decode(JSONValue.self, from: data) } catch { throw Runtime.fail("\(file) is not JSON") }
                if let unknown = [RetentionRule].unknownMember(raw) { throw Runtime.fail("rules\(unknown) is not a known field") }
                let rules: [RetentionRule]
                do { rules = try JSONDecoder().decode([RetentionRule].self, from: data) } catch {
                    throw Runtime.fail("\(file) is not an array of rules: \(error)")
                }
                let bundleId = bundleId
                let set = try await tenant.run { capabilities, tenant in
                    try await capabilities.retentionRules.setRules(
                        tenant: tenant, bundleId: bundleId, rules: rules, actor: .cli)
                }
                print("\(set.count) retention rules set for \(bundleId)")
            }
        }

        struct Get: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Print the app's rules as JSON, in the order they are tried.")
            @OptionGroup var tenant: TenantOption
            @Option(help: "The app's bundle ID.") var bundleId: String

            func run() async throws {
                let bundleId = bundleId
                try RetentionCommand.printJSON(
                    try await tenant.run { capabilities, tenant in
                        try await capabilities.retentionRules.rules(tenant: tenant, bundleId: bundleId)
                    })
            }
        }
    }

    struct Images: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Upload, list and delete the app's images.", subcommands: [Upload.self, List.self, Delete.self])

        struct Upload: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Upload a PNG (Apple's rules checked first); prints its identifier.")
            @OptionGroup var app: AppTarget
            @Option(help: "The PNG file.") var file: String
            @Option(help: "FULL_SIZE (above a message's body) or BULLET_POINT.") var imageSize: String
            @Option(help: "Your identifier for it (default: a new UUID).") var imageIdentifier: String?

            func run() async throws {
                let (app, png, size, id) = (
                    app, try RetentionCommand.read(file), ImageSize(rawValue: imageSize), try RetentionCommand.uuid(imageIdentifier, option: "image-identifier")
                )
                let uploaded = try await Runtime.run { capabilities in
                    try await capabilities.retention.uploadImage(
                        try await app.target(capabilities), imageIdentifier: id, imageSize: size, png: png, actor: .cli)
                }
                print(uploaded.uuidString.lowercased())
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Print the app's images with Apple's review state.")
            @OptionGroup var app: AppTarget

            func run() async throws {
                let app = app
                try RetentionCommand.printJSON(
                    try await Runtime.run { capabilities in try await capabilities.retention.images(try await app.target(capabilities)) })
            }
        }

        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Delete an image no message uses.")
            @OptionGroup var app: AppTarget
            @Option(help: "The image's identifier.") var imageIdentifier: String

            func run() async throws {
                let (app, id) = (app, try RetentionCommand.uuid(imageIdentifier, option: "image-identifier")!)
                try await Runtime.run { capabilities in
                    try await capabilities.retention.deleteImage(try await app.target(capabilities), imageIdentifier: id, actor: .cli)
                }
                print("deleted image \(id.uuidString.lowercased())")
            }
        }
    }

    struct Messages: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Upload, list and delete the app's messages.", subcommands: [Upload.self, List.self, Delete.self])

        struct Upload: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Upload a message from a JSON file ({header, body, image?, headerPosition?, bulletPoints?}, Apple's Upload Message body).")
            @OptionGroup var app: AppTarget
            @Option(help: "The JSON file.") var file: String
            @Option(help: "Your identifier for it (default: a new UUID).") var messageIdentifier: String?

            func run() async throws {
                let data = try RetentionCommand.read(file)
                let message: UploadMessageRequestBody
                do { message = try JSONDecoder().decode(UploadMessageRequestBody.self, from: data) } catch {
                    throw Runtime.fail("\(file) is not a message: \(error)")
                }
                let (app, id) = (app, try RetentionCommand.uuid(messageIdentifier, option: "message-identifier"))
                let uploaded = try await Runtime.run { capabilities in
                    try await capabilities.retention.uploadMessage(try await app.target(capabilities), messageIdentifier: id, message: message, actor: .cli)
                }
                print(uploaded.uuidString.lowercased())
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Print the app's messages with Apple's review state.")
            @OptionGroup var app: AppTarget

            func run() async throws {
                let app = app
                try RetentionCommand.printJSON(
                    try await Runtime.run { capabilities in try await capabilities.retention.messages(try await app.target(capabilities)) })
            }
        }

        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Delete a message.")
            @OptionGroup var app: AppTarget
            @Option(help: "The message's identifier.") var messageIdentifier: String

            func run() async throws {
                let (app, id) = (app, try RetentionCommand.uuid(messageIdentifier, option: "message-identifier")!)
                try await Runtime.run { capabilities in
                    try await capabilities.retention.deleteMessage(try await app.target(capabilities), messageIdentifier: id, actor: .cli)
                }
                print("deleted message \(id.uuidString.lowercased())")
            }
        }
    }

    struct Defaults: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The message Apple shows for a product and locale when the realtime endpoint answers nothing.",
            subcommands: [Configure.self, Get.self, Delete.self])

        struct ProductLocale: ParsableArguments {
            @Option(help: "The subscription's product identifier.") var productId: String
            @Option(help: "The locale, such as en-US.") var locale: String
        }

        struct Configure: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Make an approved message the default.")
            @OptionGroup var app: AppTarget
            @OptionGroup var product: ProductLocale
            @Option(help: "The message's identifier.") var messageIdentifier: String

            func run() async throws {
                let (app, product, id) = (app, product, try RetentionCommand.uuid(messageIdentifier, option: "message-identifier")!)
                try await Runtime.run { capabilities in
                    try await capabilities.retention.configureDefaultMessage(
                        try await app.target(capabilities), productId: product.productId, locale: product.locale, messageIdentifier: id, actor: .cli)
                }
                print("default message for \(product.productId) \(product.locale): \(id.uuidString.lowercased())")
            }
        }

        struct Get: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Print the default message's identifier.")
            @OptionGroup var app: AppTarget
            @OptionGroup var product: ProductLocale

            func run() async throws {
                let (app, product) = (app, product)
                let id = try await Runtime.run { capabilities in
                    try await capabilities.retention.defaultMessage(try await app.target(capabilities), productId: product.productId, locale: product.locale)
                }
                print(id.uuidString.lowercased())
            }
        }

        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Remove the default message.")
            @OptionGroup var app: AppTarget
            @OptionGroup var product: ProductLocale

            func run() async throws {
                let (app, product) = (app, product)
                try await Runtime.run { capabilities in
                    try await capabilities.retention.deleteDefaultMessage(
                        try await app.target(capabilities), productId: product.productId, locale: product.locale, actor: .cli)
                }
                print("default message for \(product.productId) \(product.locale) removed")
            }
        }
    }

    struct RealtimeURL: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "realtime-url", abstract: "Point Apple's Get Retention Message requests at Storegate, or stop them.",
            subcommands: [Configure.self, Get.self, Delete.self])

        struct Configure: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Configure $STOREGATE_PUBLIC_URL/apple/retention/<token> (the token of the app's notification URL) with Apple.")
            @OptionGroup var app: AppTarget

            func run() async throws {
                let app = app
                print(
                    try await Runtime.run { capabilities in
                        try await capabilities.retention.configureRealtimeURL(try await app.target(capabilities), publicURL: Runtime.publicURL, actor: .cli)
                    })
            }
        }

        struct Get: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Print the realtime URL Apple has.")
            @OptionGroup var app: AppTarget

            func run() async throws {
                let app = app
                print(try await Runtime.run { capabilities in try await capabilities.retention.realtimeURL(try await app.target(capabilities)) })
            }
        }

        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Stop Apple's realtime requests.")
            @OptionGroup var app: AppTarget

            func run() async throws {
                let app = app
                try await Runtime.run { capabilities in try await capabilities.retention.deleteRealtimeURL(try await app.target(capabilities), actor: .cli) }
                print("realtime URL removed")
            }
        }
    }

    struct PerformanceTest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "performance-test", abstract: "Apple's performance test of the realtime endpoint.", subcommands: [Start.self, Results.self])

        struct Start: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Start it with a Sandbox subscription; prints Apple's configuration and requestId.")
            @OptionGroup var app: AppTarget
            @Option(help: "A Sandbox subscription's original transaction ID, for Apple's requests to name.") var originalTransactionId: String

            func run() async throws {
                let (app, id) = (app, originalTransactionId)
                try RetentionCommand.printJSON(
                    try await Runtime.run { capabilities in
                        try await capabilities.retention.startPerformanceTest(try await app.target(capabilities), originalTransactionId: id, actor: .cli)
                    })
            }
        }

        struct Results: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Print its outcome: PENDING, PASS or FAIL, the success rate and response times.")
            @OptionGroup var app: AppTarget
            @Option(help: "The requestId start printed.") var requestId: String

            func run() async throws {
                let (app, id) = (app, requestId)
                try RetentionCommand.printJSON(
                    try await Runtime.run { capabilities in
                        try await capabilities.retention.performanceTestResults(try await app.target(capabilities), requestId: id)
                    })
            }
        }
    }
}
