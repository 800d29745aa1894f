import AppStoreServer
import Foundation

/// An app's Retention Messaging with Apple, in one of its environments: the images and messages Apple may
/// show a customer about to cancel, the default message per product and locale, the URL of the app's Get
/// Retention Message endpoint (Storegate's own), and Apple's performance test of it. Apple's rules are
/// checked before Apple is called (`RetentionMessagingRules`, the field named); Apple's refusals come back
/// with Apple's code; every change is audited.
public struct RetentionMessagingService: Sendable {
    let persistence: any Persistence
    let gateway: AppStoreGateway
    let audits: AuditBatcher

    init(persistence: any Persistence, gateway: AppStoreGateway) {
        self.persistence = persistence
        self.gateway = gateway
        self.audits = AuditBatcher(persistence: persistence)
    }

    /// An app of the tenant and one of its environments (Production by default when it has it).
    public struct Target: Sendable {
        public let tenant: Tenant
        public let bundleId: String
        public let environment: AppStoreEnvironment?

        public init(tenant: Tenant, bundleId: String, environment: AppStoreEnvironment?) {
            self.tenant = tenant
            self.bundleId = bundleId
            self.environment = environment
        }
    }

    /// Calls Apple for `target` with the app's key; Apple's refusal becomes `appStore`, naming `field`.
    func call<T: Sendable>(
        _ target: Target, field: String, audit action: String? = nil, actor: Actor? = nil, detail: [String: String] = [:],
        _ body: (AppStoreServerAPIClient) async throws(AppStoreServerAPIError) -> T
    ) async throws -> T {
        let app = try await persistence.app(target.tenant, bundleId: target.bundleId)
        let environment = try app.environment(target.environment)
        let client = try await gateway.client(tenant: target.tenant, app: app, environment: environment)
        let value: T
        do { value = try await body(client) } catch { throw AppStoreGateway.storegateError(error, field: field) }
        if let action, let actor {
            let detail = detail.merging(["bundleId": app.bundleId, "environment": environment.rawValue]) { a, _ in a }
            try await audits.record(.init(actor: actor.description, tenantId: target.tenant.id, action: "retention." + action, detail: detail))
        }
        return value
    }

    static func check(_ violation: RetentionMessagingRules.Violation?) throws(StoregateError) {
        if let violation { throw .invalid(field: violation.field, reason: violation.reason) }
    }

    // MARK: Images

    /// Uploads a PNG (Apple's rules checked first); returns its identifier (`imageIdentifier`, or a new one).
    public func uploadImage(_ target: Target, imageIdentifier: UUID?, imageSize: ImageSize, png: Data, actor: Actor) async throws -> UUID {
        try Self.check(RetentionMessagingRules.check(image: png, size: imageSize))
        let id = imageIdentifier ?? UUID()
        try await call(
            target, field: "image", audit: "image.upload", actor: actor, detail: ["imageIdentifier": id.lowercased, "imageSize": imageSize.rawValue]
        ) {
            client throws(AppStoreServerAPIError) in try await client.uploadImage(imageIdentifier: id, image: png, imageSize: imageSize)
        }
        return id
    }

    public func images(_ target: Target) async throws -> [GetImageListResponseItem] {
        try await call(target, field: "bundleId") { client throws(AppStoreServerAPIError) in try await client.getImageList().imageIdentifiers ?? [] }
    }

    public func deleteImage(_ target: Target, imageIdentifier: UUID, actor: Actor) async throws {
        try await call(target, field: "imageIdentifier", audit: "image.delete", actor: actor, detail: ["imageIdentifier": imageIdentifier.lowercased]) {
            client throws(AppStoreServerAPIError) in try await client.deleteImage(imageIdentifier: imageIdentifier)
        }
    }

    // MARK: Messages

    /// Uploads a message (Apple's rules checked first); returns its identifier.
    public func uploadMessage(_ target: Target, messageIdentifier: UUID?, message: UploadMessageRequestBody, actor: Actor) async throws -> UUID {
        try Self.check(RetentionMessagingRules.check(message))
        let id = messageIdentifier ?? UUID()
        try await call(target, field: "messageIdentifier", audit: "message.upload", actor: actor, detail: ["messageIdentifier": id.lowercased]) {
            client throws(AppStoreServerAPIError) in try await client.uploadMessage(messageIdentifier: id, request: message)
        }
        return id
    }

    public func messages(_ target: Target) async throws -> [GetMessageListResponseItem] {
        try await call(target, field: "bundleId") { client throws(AppStoreServerAPIError) in try await client.getMessageList().messageIdentifiers ?? [] }
    }

    public func deleteMessage(_ target: Target, messageIdentifier: UUID, actor: Actor) async throws {
        try await call(target, field: "messageIdentifier", audit: "message.delete", actor: actor, detail: ["messageIdentifier": messageIdentifier.lowercased]) {
            client throws(AppStoreServerAPIError) in try await client.deleteMessage(messageIdentifier: messageIdentifier)
        }
    }

    // MARK: Default messages

    public func configureDefaultMessage(_ target: Target, productId: String, locale: String, messageIdentifier: UUID, actor: Actor) async throws {
        let productId = try Validate.storeIdentifier(productId, field: "productId")
        try Self.check(RetentionMessagingRules.check(locale: locale))
        try await call(
            target, field: "messageIdentifier", audit: "default.configure", actor: actor,
            detail: ["productId": productId, "locale": locale, "messageIdentifier": messageIdentifier.lowercased]
        ) { client throws(AppStoreServerAPIError) in
            try await client.configureDefaultMessage(
                productId: productId, locale: locale, request: DefaultConfigurationRequest(messageIdentifier: LowercaseUUID(messageIdentifier)))
        }
    }

    /// The default message for a product and locale.
    public func defaultMessage(_ target: Target, productId: String, locale: String) async throws -> UUID {
        let productId = try Validate.storeIdentifier(productId, field: "productId")
        try Self.check(RetentionMessagingRules.check(locale: locale))
        return try await call(target, field: "locale") { client throws(AppStoreServerAPIError) in
            try await client.getDefaultMessage(productId: productId, locale: locale).messageIdentifier.uuid
        }
    }

    public func deleteDefaultMessage(_ target: Target, productId: String, locale: String, actor: Actor) async throws {
        let productId = try Validate.storeIdentifier(productId, field: "productId")
        try Self.check(RetentionMessagingRules.check(locale: locale))
        try await call(target, field: "locale", audit: "default.delete", actor: actor, detail: ["productId": productId, "locale": locale]) {
            client throws(AppStoreServerAPIError) in try await client.deleteDefaultMessage(productId: productId, locale: locale)
        }
    }

    // MARK: Realtime URL

    /// Tells Apple to call `url` (Storegate's endpoint for the app and environment) in real time.
    /// Points Apple at Storegate's endpoint for the app and environment, `<publicURL>/apple/retention/<token>`
    /// (the token of the environment's notification URL); returns the URL.
    public func configureRealtimeURL(_ target: Target, publicURL: String, actor: Actor) async throws -> String {
        let app = try await persistence.app(target.tenant, bundleId: target.bundleId)
        let environment = try app.environment(target.environment)
        let urls = try await persistence.inTenant(target.tenant, .read) { try await $0.apps.notificationURLs(appId: app.id) }
        guard let notificationURL = urls.first(where: { $0.environment == environment }) else {
            throw StoregateError.invalid(field: "environment", reason: "the app has no endpoint for \(environment.rawValue)")
        }
        let url = AppleEndpoint.retention.url(publicURL: publicURL, token: notificationURL.token)
        try Self.check(RetentionMessagingRules.check(realtimeURL: url))
        try await call(target, field: "realtimeURL", audit: "realtimeURL.configure", actor: actor, detail: ["realtimeURL": url]) {
            client throws(AppStoreServerAPIError) in try await client.configureRealtimeURL(request: RealtimeUrlRequest(realtimeURL: url))
        }
        return url
    }

    public func realtimeURL(_ target: Target) async throws -> String {
        try await call(target, field: "bundleId") { client throws(AppStoreServerAPIError) in try await client.getRealtimeURL().realtimeURL }
    }

    public func deleteRealtimeURL(_ target: Target, actor: Actor) async throws {
        try await call(target, field: "bundleId", audit: "realtimeURL.delete", actor: actor) { client throws(AppStoreServerAPIError) in
            try await client.deleteRealtimeURL()
        }
    }

    // MARK: Performance test

    /// Starts Apple's performance test of the realtime endpoint, with one of the app's sandbox purchases.
    public func startPerformanceTest(_ target: Target, originalTransactionId: String, actor: Actor) async throws -> PerformanceTestResponse {
        let originalTransactionId = try Validate.transactionId(originalTransactionId, field: "originalTransactionId")
        return try await call(
            target, field: "originalTransactionId", audit: "performanceTest.start", actor: actor, detail: ["originalTransactionId": originalTransactionId]
        ) { client throws(AppStoreServerAPIError) in
            try await client.initiatePerformanceTest(request: PerformanceTestRequest(originalTransactionId: originalTransactionId))
        }
    }

    public func performanceTestResults(_ target: Target, requestId: String) async throws -> PerformanceTestResultResponse {
        let requestId = try Validate.rule(.storeIdentifier, requestId, field: "requestId")
        return try await call(target, field: "requestId") { client throws(AppStoreServerAPIError) in
            try await client.getPerformanceTestResults(requestId: requestId)
        }
    }
}

extension UUID {
    /// As Apple's APIs write it.
    var lowercased: String { uuidString.lowercased() }
}
