import AppStoreServer
import ArgumentParser
import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import Storegate

extension SimulatorCommand {
    /// Tells a running simulator the apps Storegate has, so that it plays Apple for them: each app in one
    /// environment (Sandbox when it has it), its notification URL, and its keys' public halves (bearer tokens
    /// signed with them are then accepted). Nothing secret leaves Storegate.
    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a tenant's apps (or every tenant's) with a running simulator: their keys' public halves and notification URLs.",
            discussion: "The notification URLs use STOREGATE_PUBLIC_URL (default http://127.0.0.1:8080), where `storegate serve` listens.")

        @Option(help: "The simulator's address.") var simulator = "http://127.0.0.1:9090"
        @Option(help: "Only this tenant's apps (default: every tenant's).") var tenant: String?

        func run() async throws {
            let (base, slug, publicURL) = (simulator.hasSuffix("/") ? String(simulator.dropLast()) : simulator, tenant, Runtime.publicURL)
            let apps = try await Runtime.run { capabilities in
                let tenants = if let slug { [try await capabilities.tenants.get(slug: slug)] } else { try await capabilities.tenants.list() }
                var apps: [AppDetails] = []
                for tenant in tenants { apps += try await capabilities.apps.list(tenant: tenant) }
                return apps
            }
            for details in apps {
                let app = details.app
                let environment: AppStoreEnvironment = app.environments.contains(.sandbox) ? .sandbox : .production
                var body: [String: Any] = ["bundleId": app.bundleId, "environment": environment.rawValue]
                body["appAppleId"] = app.appAppleId
                if let webhook = details.notificationURLs.first(where: { $0.environment == environment }) {
                    body["notificationURL"] = AppleEndpoint.notifications.url(publicURL: publicURL, token: webhook.token)
                }
                try await Self.post(base + "/simulator/apps", body)
                for key in details.keys {
                    let publicKey = try P256.Signing.PublicKey(x963Representation: key.publicKey).pemRepresentation
                    try await Self.post(
                        base + "/simulator/apps/\(app.bundleId)/keys",
                        ["keyId": key.keyId, "issuerId": key.issuerId.uuidString.lowercased(), "publicKey": publicKey])
                }
                print(
                    "registered \(app.bundleId) (\(environment.rawValue)) with \(details.keys.count) key(s), notifications to \(body["notificationURL"] ?? "nowhere")"
                )
            }
            if apps.isEmpty { print("no apps to register") }
        }

        static func post(_ url: String, _ body: [String: Any]) async throws {
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
            let response: HTTPClientResponse
            do {
                response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            } catch {
                throw Runtime.fail("cannot reach the simulator at \(url): \(error)")
            }
            let answer = try await response.body.collect(upTo: 1 << 16)
            guard (200..<300).contains(response.status.code) else {
                throw Runtime.fail("the simulator refused \(url) (\(response.status.code)): \(String(buffer: answer))")
            }
        }
    }
}
