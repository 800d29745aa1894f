import AppStoreServer
import Crypto
import Foundation
import KeyVault

/// What a tenant asks of an endpoint: where, and which of its events.
public struct WebhookEndpointSpec: Sendable {
    public var url: String
    public var description: String
    /// Event type names (`refund.granted`, …); all when empty.
    public var eventTypes: [String]
    /// Only this app's events.
    public var bundleId: String?
    /// Only `Production` or `Sandbox` events.
    public var environment: String?

    public init(url: String, description: String = "", eventTypes: [String] = [], bundleId: String? = nil, environment: String? = nil) {
        self.url = url
        self.description = description
        self.eventTypes = eventTypes
        self.bundleId = bundleId
        self.environment = environment
    }
}

/// A webhook endpoint as created or rotated: the secret is shown this once.
public struct WebhookEndpointWithSecret: Sendable {
    public let endpoint: WebhookEndpoint
    public let secret: String
}

/// What a test message to an endpoint got back.
public struct WebhookTestResult: Sendable {
    public let statusCode: Int?
    public let latencyMilliseconds: Int
    public let error: String?
}

/// A tenant's webhook endpoints: created with a `whsec_` secret (shown once, stored sealed), filtered
/// by event type, app and environment, rotated with a 24-hour overlap, tested, and their deliveries
/// listed and sent again.
public struct WebhookService: Sendable {
    let persistence: any Persistence
    let vault: KeyVault
    public let policy: WebhookURLPolicy
    let sender: WebhookSender
    let directory: AppDirectory

    /// How long a rotated secret keeps signing beside the new one.
    public static let rotationOverlap: TimeInterval = 24 * 3600
    /// Endpoints per tenant.
    public static let maxEndpoints = 50

    /// The same service accepting http and private addresses: for the CLI's development flag.
    public func allowingPrivateURLs() -> WebhookService {
        let policy = WebhookURLPolicy(allowPrivate: true)
        return WebhookService(persistence: persistence, vault: vault, policy: policy, sender: sender, directory: directory)
    }

    /// A new endpoint, with its secret (shown this once).
    public func create(tenant: Tenant, _ spec: WebhookEndpointSpec, actor: Actor) async throws -> WebhookEndpointInfo {
        let url = try await policy.validate(spec.url)
        let created = try await persistence.inTenant(tenant) { unit in
            guard try await unit.webhookEndpoints.list().count < Self.maxEndpoints else {
                throw StoregateError.conflict(field: "url", reason: "the tenant has \(Self.maxEndpoints) endpoints, the most it may have")
            }
            return try await insert(url: url, try await Self.filters(spec, in: unit), actor: actor, in: unit)
        }
        return try await info([created.endpoint], tenant: tenant, secret: created.secret)[0]
    }

    /// The answers for `endpoints`, each named by its app's bundle ID.
    func info(_ endpoints: [WebhookEndpoint], tenant: Tenant, secret: String? = nil) async throws -> [WebhookEndpointInfo] {
        let bundles = try await directory.bundleIds(tenant: tenant, covering: endpoints.compactMap(\.appId))
        return endpoints.map { WebhookEndpointInfo($0, bundleId: $0.appId.flatMap { bundles[$0] }, secret: secret) }
    }

    /// Stores a new endpoint at `url` (already validated) with a new secret, in `unit`.
    func insert(url: String, _ filters: Filters, actor: Actor, in unit: any TenantUnit) async throws -> WebhookEndpointWithSecret {
        let secret = StandardWebhooks.newSecret()
        var endpoint = WebhookEndpoint(
            id: UUID(), tenantId: unit.tenant.id, url: url, description: "", eventTypes: [], appId: nil, environment: nil, failingSince: nil, createdAt: Date())
        filters.apply(to: &endpoint)
        try await unit.webhookEndpoints.insert(endpoint, secret: try seal(secret, endpoint: endpoint))
        try await unit.audit(actor, "webhook.create", ["endpoint": endpoint.displayId, "url": url])
        return WebhookEndpointWithSecret(endpoint: endpoint, secret: secret)
    }

    public func list(tenant: Tenant) async throws -> [WebhookEndpointInfo] {
        try await info(try await persistence.inTenant(tenant, .read) { try await $0.webhookEndpoints.list() }, tenant: tenant)
    }

    public func get(tenant: Tenant, id: String) async throws -> WebhookEndpoint {
        let id = try Self.endpointId(id)
        guard let endpoint = try await persistence.inTenant(tenant, .read, { try await $0.webhookEndpoints.find(id: id) }) else {
            throw StoregateError.notFound(field: "id")
        }
        return endpoint
    }

    /// Replaces the endpoint's URL, description and filters with `spec`.
    public func update(tenant: Tenant, id: String, _ spec: WebhookEndpointSpec, actor: Actor) async throws -> WebhookEndpointInfo {
        let uuid = try Self.endpointId(id)
        let url = try await policy.validate(spec.url)
        let updated = try await persistence.inTenant(tenant) { unit in
            guard var endpoint = try await unit.webhookEndpoints.find(id: uuid) else { throw StoregateError.notFound(field: "id") }
            endpoint.url = url
            try await Self.filters(spec, in: unit).apply(to: &endpoint)
            _ = try await unit.webhookEndpoints.update(endpoint)
            try await unit.audit(actor, "webhook.update", ["endpoint": endpoint.displayId, "url": url])
            return endpoint
        }
        return try await info([updated], tenant: tenant)[0]
    }

    /// Removes the endpoint with its secrets and deliveries.
    public func delete(tenant: Tenant, id: String, actor: Actor) async throws {
        let uuid = try Self.endpointId(id)
        try await persistence.inTenant(tenant) { unit in
            guard try await unit.webhookEndpoints.delete(id: uuid) else { throw StoregateError.notFound(field: "id") }
            try await unit.completeJobs(.deliverWebhooks, refs: [uuid.uuidString])
            try await unit.audit(actor, "webhook.delete", ["endpoint": id])
        }
    }

    /// A new secret, shown once; the previous one keeps signing beside it for 24 hours.
    public func rotateSecret(tenant: Tenant, id: String, actor: Actor) async throws -> WebhookEndpointInfo {
        let endpoint = try await get(tenant: tenant, id: id)
        let secret = StandardWebhooks.newSecret()
        let sealed = try seal(secret, endpoint: endpoint)
        try await persistence.inTenant(tenant) { unit in
            try await unit.webhookEndpoints.rotate(endpointId: endpoint.id, to: sealed, previousUntil: Date() + Self.rotationOverlap)
            try await unit.audit(actor, "webhook.rotate-secret", ["endpoint": endpoint.displayId])
        }
        return try await info([endpoint], tenant: tenant, secret: secret)[0]
    }

    /// Sends a signed `webhook.test` message now (not an event: it is neither stored nor retried).
    public func test(tenant: Tenant, id: String) async throws -> WebhookTestResult {
        guard let (endpoint, keys) = try await Self.endpointWithKeys(try Self.endpointId(id), tenant: tenant, persistence: persistence, vault: vault)
        else { throw StoregateError.notFound(field: "id") }
        let messageId = PrefixedID.encode("msg_", UUID())
        let body = try EventData.encoder.encode(
            TestMessage(id: messageId, type: "webhook.test", createdAt: Date(), data: .init(endpointId: endpoint.displayId)))
        let attempt = await sender.send(url: endpoint.url, messageId: messageId, body: body, keys: keys, number: 1)
        return WebhookTestResult(statusCode: attempt.statusCode, latencyMilliseconds: attempt.latencyMilliseconds, error: attempt.error)
    }

    struct TestMessage: Encodable {
        struct Data: Encodable { let endpointId: String }
        let id: String
        let type: String
        let createdAt: Date
        let data: Data
    }

    public static let deliveriesPage = PageSize(standard: 50, maximum: 100)

    /// Deliveries newest first, with every attempt; of one endpoint and one status when given.
    public func deliveries(tenant: Tenant, endpointId: String?, status: String?, before: String?, limit: Int?) async throws -> [WebhookDelivery] {
        let endpoint = try endpointId.map { try Self.endpointId($0, field: "endpointId") }
        let status = try status.map { text in
            guard let status = WebhookDelivery.Status(rawValue: text) else {
                throw StoregateError.invalid(
                    field: "status", reason: "must be one of " + WebhookDelivery.Status.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return status
        }
        let cursor = try before.map { try Self.deliveryId($0, field: "before") }
        let limit = try Self.deliveriesPage.limit(limit)
        return try await persistence.inTenant(tenant, .read) { unit in
            if let endpoint, try await unit.webhookEndpoints.find(id: endpoint) == nil { throw StoregateError.notFound(field: "endpointId") }
            return try await unit.webhookDeliveries.list(endpointId: endpoint, status: status, before: cursor, limit: limit)
        }
    }

    /// Sends one delivery again now (whatever its status), with a fresh 3-day retry window.
    public func redeliver(tenant: Tenant, deliveryId: String, actor: Actor) async throws -> Int {
        let id = try Self.deliveryId(deliveryId, field: "deliveryId")
        return try await persistence.inTenant(tenant) { unit in
            let result = try await unit.webhookDeliveries.redeliver(id: id)
            guard result.found else { throw StoregateError.notFound(field: "deliveryId") }
            try await unit.enqueue(.deliverWebhooks, ref: result.endpointId.uuidString, due: Date())
            try await unit.audit(actor, "webhook.redeliver", ["delivery": deliveryId])
            return 1
        }
    }

    /// Sends again every dead-lettered delivery of events since `since`; of one endpoint when given.
    public func redeliverFailed(tenant: Tenant, endpointId: String?, since: Date, actor: Actor) async throws -> Int {
        let endpoint = try endpointId.map { try Self.endpointId($0, field: "endpointId") }
        return try await persistence.inTenant(tenant) { unit in
            if let endpoint, try await unit.webhookEndpoints.find(id: endpoint) == nil { throw StoregateError.notFound(field: "endpointId") }
            let result = try await unit.webhookDeliveries.redeliverFailed(endpointId: endpoint, since: since)
            for id in result.endpointIds { try await unit.enqueue(.deliverWebhooks, ref: id.uuidString, due: Date()) }
            try await unit.audit(actor, "webhook.redeliver", ["since": ISO8601DateFormatter().string(from: since), "count": String(result.count)])
            return result.count
        }
    }

    // MARK: Parts

    /// What an endpoint is sent: its description and filters, checked.
    struct Filters {
        let description: String
        let types: [Event.Kind]
        let appId: UUID?
        let environment: AppStoreEnvironment?

        func matches(_ endpoint: WebhookEndpoint) -> Bool {
            endpoint.description == description && endpoint.eventTypes == types && endpoint.appId == appId && endpoint.environment == environment
        }

        func apply(to endpoint: inout WebhookEndpoint) {
            endpoint.description = description
            endpoint.eventTypes = types
            endpoint.appId = appId
            endpoint.environment = environment
        }
    }

    /// `spec`'s description and filters, checked in the tenant (its app by bundle ID); errors name the
    /// field, under `prefix` when given (`webhooks[0].bundleId` in a manifest).
    static func filters(_ spec: WebhookEndpointSpec, field prefix: String = "", in unit: any TenantUnit) async throws -> Filters {
        func field(_ name: String) -> String { prefix.isEmpty ? name : prefix + "." + name }
        guard spec.description.count <= 200 else { throw StoregateError.invalid(field: field("description"), reason: "must be at most 200 characters") }
        var types: [Event.Kind] = []
        for (index, name) in spec.eventTypes.enumerated() {
            guard let type = Event.Kind(rawValue: name) else {
                throw StoregateError.invalid(
                    field: field("eventTypes[\(index)]"), reason: "is not an event type (\(Event.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            if !types.contains(type) { types.append(type) }
        }
        var environment: AppStoreEnvironment?
        if let text = spec.environment {
            environment = AppStoreEnvironment(rawValue: text)
            guard [.production, .sandbox].contains(environment) else {
                throw StoregateError.invalid(field: field("environment"), reason: "must be Production or Sandbox")
            }
        }
        var appId: UUID?
        if let bundleId = spec.bundleId {
            let bundleId = try Validate.bundleId(bundleId, field: field("bundleId"))
            guard let app = try await unit.apps.find(bundleId: bundleId) else { throw StoregateError.notFound(field: field("bundleId")) }
            appId = app.id
        }
        return Filters(description: spec.description, types: types, appId: appId, environment: environment)
    }

    private func seal(_ secret: String, endpoint: WebhookEndpoint) throws -> SealedWebhookSecret {
        let id = UUID()
        let aad = SealedWebhookSecret.associatedData(tenantId: endpoint.tenantId, endpointId: endpoint.id, secretId: id)
        return SealedWebhookSecret(id: id, endpointId: endpoint.id, sealed: try vault.seal(Data(secret.utf8), associatedData: aad), expiresAt: nil)
    }

    /// The endpoint and the keys that sign for it now (newest first), in one unit; nil when it is gone.
    static func endpointWithKeys(
        _ id: UUID, tenant: Tenant, persistence: any Persistence, vault: KeyVault
    ) async throws -> (
        WebhookEndpoint, [SymmetricKey]
    )? {
        let found = try await persistence.inTenant(tenant, .read) { unit -> (WebhookEndpoint, [SealedWebhookSecret])? in
            guard let endpoint = try await unit.webhookEndpoints.find(id: id) else { return nil }
            return (endpoint, try await unit.webhookEndpoints.secrets(endpointId: id))
        }
        guard let (endpoint, sealed) = found else { return nil }
        let keys = try sealed.map { secret in
            let aad = SealedWebhookSecret.associatedData(tenantId: tenant.id, endpointId: secret.endpointId, secretId: secret.id)
            let text = String(decoding: try vault.open(secret.sealed, associatedData: aad), as: UTF8.self)
            guard let key = StandardWebhooks.key(text) else { throw StoregateError.keyUnavailable(keyId: secret.id.uuidString, reason: "not a whsec_ secret") }
            return key
        }
        return (endpoint, keys)
    }

    static func endpointId(_ text: String, field: String = "id") throws -> UUID {
        guard let id = PrefixedID.decode("we_", text) else { throw StoregateError.invalid(field: field, reason: "must be a webhook endpoint id (we_…)") }
        return id
    }

    static func deliveryId(_ text: String, field: String) throws -> UUID {
        guard let id = PrefixedID.decode("wd_", text) else { throw StoregateError.invalid(field: field, reason: "must be a delivery id (wd_…)") }
        return id
    }
}
