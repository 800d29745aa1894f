import AppStoreServer
import Contract
import Foundation

/// A webhook endpoint as the tenant sees it: named by its app's bundle ID, with its signing secret only
/// in the answer that made the secret (create and rotate).
@RPCObject(title: "WebhookEndpoint") public struct WebhookEndpointInfo: Sendable {
    @Field(.endpointId) public let id: String
    @Field(.url(maxLength: 2048)) public let url: String
    public let description: String
    public let eventTypes: [Event.Kind]
    @Field(.bundleId) public let bundleId: String?
    @Field(.appEnvironment) public let environment: String?
    /// `failing` once a delivery was dead-lettered, until one succeeds again.
    @Field(.oneOf(["active", "failing"])) public let status: String
    public let failingSince: Date?
    public let createdAt: Date
    /// The signing secret (`whsec_…`), only in the answer to webhooks.create and webhooks.rotateSecret: store it, it is not shown again.
    @Field(.characters("A-Za-z0-9+/=", count: 44...44, prefix: "whsec_")) public let secret: String?

    init(_ endpoint: WebhookEndpoint, bundleId: String?, secret: String? = nil) {
        id = endpoint.displayId
        url = endpoint.url
        description = endpoint.description
        eventTypes = endpoint.eventTypes
        self.bundleId = bundleId
        environment = endpoint.environment?.rawValue
        status = endpoint.failingSince == nil ? "active" : "failing"
        failingSince = endpoint.failingSince
        createdAt = endpoint.createdAt
        self.secret = secret
    }
}
