import AppStoreServer
import AsyncHTTPClient
import Foundation
import Hummingbird

/// `/inApps/v1/messaging/…`: the Retention Messaging API, per app and environment (`RetentionMessaging`).
extension AppStoreSimulator {
    func addRetentionRoutes(to api: RouterGroup<SimulatorContext>) {
        api.put("v1/messaging/image/:id") { request, context in
            let size = request.uri.queryParameters["imageSize"].map { ImageSize(rawValue: String($0)) } ?? .fullSize
            var request = request
            let png = Data(try await request.collectBody(upTo: Self.maxImageBytes).readableBytesView)
            return try await retention(context) { try $0.uploadImage(try Self.identifier(context), png: png, size: size) }
        }
        api.delete("v1/messaging/image/:id") { _, context in
            try await retention(context) { try $0.deleteImage(try Self.identifier(context, notFound: .imageNotFound)) }
        }
        api.get("v1/messaging/image/list") { _, context in try await retention(context) { $0.imageList } }
        api.put("v1/messaging/message/:id") { request, context in
            var request = request
            let data = Data(try await request.collectBody(upTo: 1 << 16).readableBytesView)
            guard let body = try? JSONDecoder().decode(UploadMessageRequestBody.self, from: data) else {
                return Self.error(.generalBadRequest, "Invalid request body.", status: .badRequest)
            }
            return try await retention(context) { try $0.uploadMessage(try Self.identifier(context), body) }
        }
        api.delete("v1/messaging/message/:id") { _, context in
            try await retention(context) { try $0.deleteMessage(try Self.identifier(context, notFound: .messageNotFound)) }
        }
        api.get("v1/messaging/message/list") { _, context in try await retention(context) { $0.messageList } }
        api.put("v1/messaging/default/:productId/:locale") { request, context in
            var request = request
            let data = Data(try await request.collectBody(upTo: 1 << 16).readableBytesView)
            let body = try? JSONDecoder().decode(DefaultConfigurationRequest.self, from: data)
            let (product, locale) = (try context.parameters.require("productId"), try context.parameters.require("locale"))
            return try await retention(context) { try $0.configureDefault(productId: product, locale: locale, message: body?.messageIdentifier?.uuid) }
        }
        api.get("v1/messaging/default/:productId/:locale") { _, context in
            let (product, locale) = (try context.parameters.require("productId"), try context.parameters.require("locale"))
            return try await retention(context) {
                DefaultConfigurationResponse(messageIdentifier: LowercaseUUID(try $0.defaultMessage(productId: product, locale: locale)))
            }
        }
        api.delete("v1/messaging/default/:productId/:locale") { _, context in
            let (product, locale) = (try context.parameters.require("productId"), try context.parameters.require("locale"))
            return try await retention(context) { try $0.deleteDefault(productId: product, locale: locale) }
        }
        api.put("v1/messaging/realtime/url") { request, context in
            var request = request
            let data = Data(try await request.collectBody(upTo: 1 << 16).readableBytesView)
            guard let body = try? JSONDecoder().decode(RealtimeUrlRequest.self, from: data) else {
                return Self.error(.badRequestRealtimeUrl, "Invalid realtime URL.", status: .badRequest)
            }
            return try await retention(context) { try $0.configureRealtimeURL(body.realtimeURL) }
        }
        api.get("v1/messaging/realtime/url") { _, context in
            try await retention(context) { RealtimeUrlResponse(realtimeURL: try $0.configuredRealtimeURL()) }
        }
        api.delete("v1/messaging/realtime/url") { _, context in try await retention(context) { try $0.deleteRealtimeURL() } }
        api.post("v1/messaging/performanceTest") { request, context in try await startPerformanceTest(request, context) }
        api.get("v1/messaging/performanceTest/result/:requestId") { _, context in
            let id = try context.parameters.require("requestId")
            return try await retention(context) { state -> PerformanceTestResultResponse in
                guard let result = state.performanceTests[id] else {
                    throw RetentionMessaging.Refusal(.performanceTestRunNotFound, "Performance test run not found.", .notFound)
                }
                return result
            }
        }
    }

    /// Apple accepts a PNG of a few megabytes; the simulator takes up to this.
    static let maxImageBytes = 16 << 20

    /// The environment a Retention Messaging call is for: the path's, else the app's own.
    func environment(_ context: SimulatorContext) async -> AppStoreEnvironment {
        if let named = context.environment { return named }
        return await store.app(context.bundleId)?.environment ?? .sandbox
    }

    /// Runs `body` on the caller's Retention Messaging: its value as JSON, nothing as 200 with no body,
    /// a refusal as Apple's error.
    func retention<T: Sendable>(_ context: SimulatorContext, _ body: @Sendable (inout RetentionMessaging) throws -> T) async throws -> Response {
        let environment = await environment(context)
        do {
            let value = try await store.retention(bundleId: context.bundleId, environment: environment, body)
            if let value = value as? any Encodable { return Self.json(value) }
            return Response(status: .ok)
        } catch let refusal as RetentionMessaging.Refusal {
            return Self.error(refusal.code, refusal.message, status: refusal.status)
        }
    }

    /// The path's `:id` as a UUID; a path that is not one names nothing Apple has.
    static func identifier(_ context: SimulatorContext, notFound: RetentionMessaging.Refusal? = nil) throws -> UUID {
        guard let id = UUID(uuidString: try context.parameters.require("id")) else {
            throw notFound ?? RetentionMessaging.Refusal(.generalBadRequest, "Invalid identifier.", .badRequest)
        }
        return id
    }
}

/// `/simulator/retention/…`: Apple's review of images and messages, and a realtime request sent as the App
/// Store sends one when a customer opens a subscription's page where they may cancel.
extension AppStoreSimulator {
    struct ReviewRequest: Decodable {
        let bundleId: String
        let environment: String?
        let identifier: UUID
        let approved: Bool
    }

    struct RealtimeScenarioRequest: Decodable {
        let bundleId: String
        let environment: String?
        let originalTransactionId: String
        /// The subscription's product, unless the request names another.
        let productId: String?
        let userLocale: String?
    }

    func addRetentionScenarioRoutes(to scenario: RouterGroup<SimulatorContext>) {
        scenario.post("retention/review") { request, context in
            let body = try await request.decode(as: ReviewRequest.self, context: context)
            let found = await store.review(
                bundleId: body.bundleId, environment: body.environment.map(AppStoreEnvironment.init(rawValue:)), identifier: body.identifier,
                approved: body.approved)
            return Response(status: found ? .ok : .notFound)
        }
        scenario.post("retention/request") { request, context in
            let body = try await request.decode(as: RealtimeScenarioRequest.self, context: context)
            guard let app = await store.app(body.bundleId), let purchase = await store.transaction(bundleId: body.bundleId, id: body.originalTransactionId)
            else { throw HTTPError(.notFound, message: "unknown bundleId or originalTransactionId") }
            let environment = body.environment.map(AppStoreEnvironment.init(rawValue:)) ?? app.environment
            guard let url = await store.retention(bundleId: body.bundleId, environment: environment, { $0.realtimeURL }) else {
                throw HTTPError(.notFound, message: "no realtime URL is configured")
            }
            let realtime = DecodedRealtimeRequestBody(
                originalTransactionId: body.originalTransactionId, appAppleId: app.appAppleId ?? 0, productId: body.productId ?? purchase.productId ?? "",
                userLocale: body.userLocale ?? "en-US", requestIdentifier: LowercaseUUID(UUID()), signedDate: Timestamp(now()), environment: environment)
            let sent = await Self.exchangeRealtimeRequest(
                realtime, to: url, ca: ca, http: sender?.http ?? HTTPClient.shared, timeout: .milliseconds(performanceTest.responseTimeThreshold))
            return Self.json(sent)
        }
    }
}
