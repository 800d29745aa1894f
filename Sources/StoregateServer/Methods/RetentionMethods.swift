import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `retention.*`: an app's Retention Messaging with Apple, per environment: images, messages, default
/// messages, the realtime URL (Storegate's own endpoint) and Apple's performance test.
enum RetentionMethods {
    static let all = [
        uploadImage, listImages, deleteImage, uploadMessage, listMessages, deleteMessage, configureDefaultMessage, getDefaultMessage,
        deleteDefaultMessage, configureRealtimeURL, getRealtimeURL, deleteRealtimeURL, startPerformanceTest, performanceTestResults, setRules, getRules,
    ]

    static let errors = [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.appStoreError]

    @RPCParams struct AppParams {
        @Field(.bundleId) let bundleId: String
        @Field(.environment) let environment: AppStoreEnvironment?
    }

    static func target(_ call: RPCCall, _ bundleId: String, _ environment: AppStoreEnvironment?) -> RetentionMessagingService.Target {
        RetentionMessagingService.Target(tenant: call.caller.tenant, bundleId: bundleId, environment: environment)
    }

    @RPCObject struct Done {
        let done: Bool
    }

    // MARK: Images

    /// The longest base64 PNG `retention.images.upload` takes (a 12 MiB image).
    static let maxPNGLength = 16 << 20

    @RPCParams struct UploadImageParams {
        @Field(.bundleId) let bundleId: String
        @Field(.environment) let environment: AppStoreEnvironment?
        /// Your identifier of the image (default: a new UUID).
        let imageIdentifier: UUID?
        @Field(.imageSize) let imageSize: String
        /// The PNG, base64: no transparency; a full-size image 3840 pixels wide and 160 to 2160 high. The
        /// call may be sent alone with a body past the server's `maxBodyBytes`, up to this length and 64 KiB.
        @Field(.maxLength(RetentionMethods.maxPNGLength)) let png: String
    }

    @RPCObject struct ImageUploaded {
        @Field(.uuid) let imageIdentifier: String
    }

    static let uploadImage = RPCMethod<RPCCall>(
        "retention.images.upload", tag: "retention", summary: "Uploads a PNG for retention messages (Apple's Upload Image).",
        description: "Apple's rules are checked first (PNG, no transparency, a full-size image's dimensions). Apple reviews it: see `retention.images.list`.",
        result: "image", errors: errors
    ) { (p: UploadImageParams, call) in
        guard let png = Data(base64Encoded: p.png) else { throw StoregateError.invalid(field: "png", reason: "must be base64") }
        let id = try await call.capabilities.retention.uploadImage(
            target(call, p.bundleId, p.environment), imageIdentifier: p.imageIdentifier, imageSize: ImageSize(rawValue: p.imageSize), png: png,
            actor: call.caller.actor)
        return ImageUploaded(imageIdentifier: id.uuidString.lowercased())
    }

    @RPCObject struct ImageList {
        @RPCObject(title: "RetentionImage") struct Image {
            @Field(.uuid) let imageIdentifier: String
            /// PENDING, APPROVED or REJECTED: Apple's review.
            let imageState: String?
            @Field(.imageSize) let imageSize: String?
        }
        let images: [Image]
    }

    static let listImages = RPCMethod<RPCCall>(
        "retention.images.list", tag: "retention", summary: "The app's images with Apple's review state (Apple's Get Image List).", result: "images",
        errors: errors
    ) { (p: AppParams, call) in
        ImageList(
            images: try await call.capabilities.retention.images(target(call, p.bundleId, p.environment)).map {
                ImageList.Image(imageIdentifier: $0.imageIdentifier?.description ?? "", imageState: $0.imageState?.rawValue, imageSize: $0.imageSize?.rawValue)
            })
    }

    @RPCParams struct ImageParams {
        @Field(.bundleId) let bundleId: String
        @Field(.environment) let environment: AppStoreEnvironment?
        let imageIdentifier: UUID
    }

    static let deleteImage = RPCMethod<RPCCall>(
        "retention.images.delete", tag: "retention", summary: "Deletes an image no message uses (Apple's Delete Image).", result: "done", errors: errors
    ) { (p: ImageParams, call) in
        try await call.capabilities.retention.deleteImage(target(call, p.bundleId, p.environment), imageIdentifier: p.imageIdentifier, actor: call.caller.actor)
        return Done(done: true)
    }

    // MARK: Messages

    @RPCObject struct MessageImage: Decodable {
        let imageIdentifier: UUID
        @Field(.text(max: RetentionMessagingRules.maxAltTextLength)) let altText: String
    }

    @RPCObject struct MessageBulletPoint: Decodable {
        @Field(.text(max: RetentionMessagingRules.maxBulletPointTextLength)) let text: String
        let imageIdentifier: UUID
        @Field(.text(max: RetentionMessagingRules.maxAltTextLength)) let altText: String
    }

    @RPCParams struct UploadMessageParams {
        @Field(.bundleId) let bundleId: String
        @Field(.environment) let environment: AppStoreEnvironment?
        /// Your identifier of the message (default: a new UUID).
        let messageIdentifier: UUID?
        @Field(.text(max: RetentionMessagingRules.maxHeaderLength)) let header: String
        @Field(.text(max: RetentionMessagingRules.maxBodyLength)) let body: String
        /// A full-size image Apple approved, with its alternative text.
        let image: MessageImage?
        @Field(.oneOf(HeaderPosition.known.map(\.rawValue))) let headerPosition: String?
        /// Up to 5, each with a bullet-point image Apple approved.
        let bulletPoints: [MessageBulletPoint]?
    }

    @RPCObject struct MessageUploaded {
        @Field(.uuid) let messageIdentifier: String
    }

    static let uploadMessage = RPCMethod<RPCCall>(
        "retention.messages.upload", tag: "retention", summary: "Uploads a retention message (Apple's Upload Message).",
        description: "Apple's limits are checked first (header 66, body 144, alt text 150, 5 bullet points of 66). Apple reviews it.",
        result: "message", errors: errors
    ) { (p: UploadMessageParams, call) in
        let message = UploadMessageRequestBody(
            header: p.header, body: p.body, image: p.image.map { UploadMessageImage(imageIdentifier: LowercaseUUID($0.imageIdentifier), altText: $0.altText) },
            headerPosition: p.headerPosition.map(HeaderPosition.init(rawValue:)),
            bulletPoints: p.bulletPoints?.map { BulletPoint(text: $0.text, imageIdentifier: LowercaseUUID($0.imageIdentifier), altText: $0.altText) })
        let id = try await call.capabilities.retention.uploadMessage(
            target(call, p.bundleId, p.environment), messageIdentifier: p.messageIdentifier, message: message, actor: call.caller.actor)
        return MessageUploaded(messageIdentifier: id.uuidString.lowercased())
    }

    @RPCObject struct MessageList {
        @RPCObject(title: "RetentionMessage") struct Message {
            @Field(.uuid) let messageIdentifier: String
            /// PENDING, APPROVED or REJECTED: Apple's review.
            let messageState: String?
        }
        let messages: [Message]
    }

    static let listMessages = RPCMethod<RPCCall>(
        "retention.messages.list", tag: "retention", summary: "The app's messages with Apple's review state (Apple's Get Message List).",
        result: "messages", errors: errors
    ) { (p: AppParams, call) in
        MessageList(
            messages: try await call.capabilities.retention.messages(target(call, p.bundleId, p.environment)).map {
                MessageList.Message(messageIdentifier: $0.messageIdentifier?.description ?? "", messageState: $0.messageState?.rawValue)
            })
    }

    @RPCParams struct MessageParams {
        @Field(.bundleId) let bundleId: String
        @Field(.environment) let environment: AppStoreEnvironment?
        let messageIdentifier: UUID
    }

    static let deleteMessage = RPCMethod<RPCCall>(
        "retention.messages.delete", tag: "retention", summary: "Deletes a message (Apple's Delete Message).", result: "done", errors: errors
    ) { (p: MessageParams, call) in
        try await call.capabilities.retention.deleteMessage(
            target(call, p.bundleId, p.environment), messageIdentifier: p.messageIdentifier, actor: call.caller.actor)
        return Done(done: true)
    }

    // MARK: Default messages

    @RPCParams struct DefaultParams {
        @Field(.bundleId) let bundleId: String
        @Field(.environment) let environment: AppStoreEnvironment?
        /// The subscription's product identifier.
        @Field(.storeIdentifier) let productId: String
        @Field(.retentionLocale) let locale: String
    }

    @RPCParams struct ConfigureDefaultParams {
        @Field(.bundleId) let bundleId: String
        @Field(.environment) let environment: AppStoreEnvironment?
        /// The subscription's product identifier.
        @Field(.storeIdentifier) let productId: String
        @Field(.retentionLocale) let locale: String
        /// A message Apple approved.
        let messageIdentifier: UUID
    }

    @RPCObject struct DefaultMessage {
        @Field(.uuid) let messageIdentifier: String
    }

    static let configureDefaultMessage = RPCMethod<RPCCall>(
        "retention.defaults.configure", tag: "retention",
        summary: "The message Apple shows for a product and locale when the realtime endpoint does not answer.",
        description: "Apple's Configure Default Message: the message must be approved.", result: "done", errors: errors
    ) { (p: ConfigureDefaultParams, call) in
        try await call.capabilities.retention.configureDefaultMessage(
            target(call, p.bundleId, p.environment), productId: p.productId, locale: p.locale, messageIdentifier: p.messageIdentifier,
            actor: call.caller.actor)
        return Done(done: true)
    }

    static let getDefaultMessage = RPCMethod<RPCCall>(
        "retention.defaults.get", tag: "retention", summary: "The default message for a product and locale (Apple's Get Default Message).",
        result: "defaultMessage", errors: errors
    ) { (p: DefaultParams, call) in
        let id = try await call.capabilities.retention.defaultMessage(target(call, p.bundleId, p.environment), productId: p.productId, locale: p.locale)
        return DefaultMessage(messageIdentifier: id.uuidString.lowercased())
    }

    static let deleteDefaultMessage = RPCMethod<RPCCall>(
        "retention.defaults.delete", tag: "retention", summary: "Removes the default message for a product and locale (Apple's Delete Default Message).",
        result: "done", errors: errors
    ) { (p: DefaultParams, call) in
        try await call.capabilities.retention.deleteDefaultMessage(
            target(call, p.bundleId, p.environment), productId: p.productId, locale: p.locale, actor: call.caller.actor)
        return Done(done: true)
    }

    // MARK: Realtime URL

    @RPCObject struct RealtimeURL {
        @Field(.url(maxLength: RetentionMessagingRules.maxRealtimeURLLength)) let realtimeURL: String
    }

    static let configureRealtimeURL = RPCMethod<RPCCall>(
        "retention.realtimeURL.configure", tag: "retention", summary: "Points Apple's Get Retention Message calls at Storegate's endpoint for the app.",
        description: """
            Apple's Configure Realtime URL with `<public URL>/apple/retention/<token>`, the app's own unguessable path for the environment \
            (the token of its notification URL). Returns the URL configured.
            """,
        result: "realtimeURL", errors: errors
    ) { (p: AppParams, call) in
        RealtimeURL(
            realtimeURL: try await call.capabilities.retention.configureRealtimeURL(
                target(call, p.bundleId, p.environment), publicURL: call.publicURL, actor: call.caller.actor))
    }

    static let getRealtimeURL = RPCMethod<RPCCall>(
        "retention.realtimeURL.get", tag: "retention", summary: "The realtime URL Apple has for the app (Apple's Get Realtime URL).", result: "realtimeURL",
        errors: errors
    ) { (p: AppParams, call) in
        RealtimeURL(realtimeURL: try await call.capabilities.retention.realtimeURL(target(call, p.bundleId, p.environment)))
    }

    static let deleteRealtimeURL = RPCMethod<RPCCall>(
        "retention.realtimeURL.delete", tag: "retention", summary: "Stops Apple's realtime calls for the app (Apple's Delete Realtime URL).",
        result: "done", errors: errors
    ) { (p: AppParams, call) in
        try await call.capabilities.retention.deleteRealtimeURL(target(call, p.bundleId, p.environment), actor: call.caller.actor)
        return Done(done: true)
    }

    // MARK: Performance test

    @RPCParams struct StartTestParams {
        @Field(.bundleId) let bundleId: String
        @Field(.environment) let environment: AppStoreEnvironment?
        /// A sandbox purchase of one of the app's subscriptions, for Apple's requests to name.
        @Field(.transactionId) let originalTransactionId: String
    }

    @RPCObject struct PerformanceTest {
        let requestId: String
        /// Apple's test: how many requests, how many at once, within how long (ms), each within how long (ms), how many must succeed (%).
        let maxConcurrentRequests: Int64
        let totalRequests: Int64
        let totalDuration: Int64
        let responseTimeThreshold: Int64
        let successRateThreshold: Int32
    }

    static let startPerformanceTest = RPCMethod<RPCCall>(
        "retention.performanceTest.start", tag: "retention", summary: "Starts Apple's performance test of the realtime endpoint.",
        description: "Apple's Initiate Performance Test; read the outcome with `retention.performanceTest.results`.", result: "performanceTest",
        errors: errors
    ) { (p: StartTestParams, call) in
        let started = try await call.capabilities.retention.startPerformanceTest(
            target(call, p.bundleId, p.environment), originalTransactionId: p.originalTransactionId, actor: call.caller.actor)
        return PerformanceTest(
            requestId: started.requestId, maxConcurrentRequests: started.config.maxConcurrentRequests, totalRequests: started.config.totalRequests,
            totalDuration: started.config.totalDuration, responseTimeThreshold: started.config.responseTimeThreshold,
            successRateThreshold: started.config.successRateThreshold)
    }

    @RPCParams struct ResultsParams {
        @Field(.bundleId) let bundleId: String
        @Field(.environment) let environment: AppStoreEnvironment?
        @Field(.storeIdentifier) let requestId: String
    }

    @RPCObject struct PerformanceTestResults {
        /// PENDING, PASS or FAIL.
        let result: String?
        let target: String
        /// Percent of requests answered well in time.
        let successRate: Int32
        let numPending: Int32
        /// Response times in milliseconds.
        let average: Int64
        let p50: Int64
        let p90: Int64
        let p95: Int64
        let p99: Int64
        /// How many requests failed, by Apple's send-attempt result.
        let failures: [String: Int32]
    }

    static let performanceTestResults = RPCMethod<RPCCall>(
        "retention.performanceTest.results", tag: "retention", summary: "The outcome of Apple's performance test (Apple's Get Performance Test Results).",
        result: "performanceTestResults", errors: errors
    ) { (p: ResultsParams, call) in
        let r = try await call.capabilities.retention.performanceTestResults(target(call, p.bundleId, p.environment), requestId: p.requestId)
        return PerformanceTestResults(
            result: r.result?.rawValue, target: r.target, successRate: r.successRate, numPending: r.numPending, average: r.responseTimes.average,
            p50: r.responseTimes.p50, p90: r.responseTimes.p90, p95: r.responseTimes.p95, p99: r.responseTimes.p99, failures: r.failures ?? [:])
    }
}

extension RetentionMethods {
    // MARK: Rules

    @RPCParams struct SetRulesParams {
        @Field(.bundleId) let bundleId: String
        /// Tried in order: the first whose conditions all hold answers. An empty list removes the app's rules.
        let rules: [RetentionRule]
    }

    @RPCObject struct Rules {
        let rules: [RetentionRule]
    }

    static let setRules = RPCMethod<RPCCall>(
        "retention.rules.set", tag: "retention", summary: "Sets how the app's Get Retention Message requests are answered.",
        description: """
            Replaces the app's rules (both environments). For each of Apple's requests the rules are tried in order and the first whose \
            conditions all hold answers: a message, an alternate product, or a promotional offer Storegate signs then with the app's key \
            (V2 JWS bound to the subscription, or V1 with the customer's appAccountToken). No rule holding, a subscription Storegate does not \
            know or any failure is answered {} and Apple shows the default message. Every answer is evented (retention.answered) and audited. \
            At most 50 rules, names unique; each answer exactly one kind.
            """, result: "rules", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: SetRulesParams, call) in
        Rules(
            rules: try await call.capabilities.retentionRules.setRules(
                tenant: call.caller.tenant, bundleId: p.bundleId, rules: p.rules, actor: call.caller.actor))
    }

    @RPCParams struct GetRulesParams {
        @Field(.bundleId) let bundleId: String
    }

    static let getRules = RPCMethod<RPCCall>(
        "retention.rules.get", tag: "retention", summary: "The app's retention rules, in the order they are tried.", result: "rules",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: GetRulesParams, call) in
        Rules(rules: try await call.capabilities.retentionRules.rules(tenant: call.caller.tenant, bundleId: p.bundleId))
    }
}

extension Rule {
    static let imageSize = Rule.oneOf(ImageSize.known.map(\.rawValue)).described("FULL_SIZE (above a message's body) or BULLET_POINT (a bullet's icon).")
}
