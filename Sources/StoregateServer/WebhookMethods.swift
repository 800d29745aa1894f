import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `webhooks.*`: the tenant's endpoints for its events, their secrets and deliveries.
enum WebhookMethods {
    static let all = [create, list, update, delete, rotateSecret, test, deliveries, redeliver]

    struct EndpointView: RPCResult {
        let id: String
        let url: String
        let description: String
        let eventTypes: [String]
        let bundleId: String?
        let environment: String?
        let status: String
        let failingSince: Date?
        let createdAt: Date
        /// Only when created or rotated: shown this once.
        let secret: String?

        init(_ endpoint: WebhookEndpoint, bundleId: String?, secret: String? = nil) {
            id = endpoint.displayId
            url = endpoint.url
            description = endpoint.description
            eventTypes = endpoint.eventTypes.map(\.rawValue)
            self.bundleId = bundleId
            environment = endpoint.environment?.rawValue
            status = endpoint.failingSince == nil ? "active" : "failing"
            failingSince = endpoint.failingSince
            createdAt = endpoint.createdAt
            self.secret = secret
        }

        static let schema = Schema.object(
            [
                ("id", Schema.string(pattern: "^we_[a-z2-7]{26}$")), ("url", Schema.string(format: "uri")), ("description", Schema.string()),
                ("eventTypes", Schema.array(of: EventView.typeSchema)), ("bundleId", AppView.bundleIdSchema),
                ("environment", Schema.enumeration(["Production", "Sandbox"])),
                ("status", Schema.enumeration(["active", "failing"], "`failing` once a delivery was dead-lettered, until one succeeds again.")),
                ("failingSince", Schema.string(format: "date-time")), ("createdAt", Schema.string(format: "date-time")),
                (
                    "secret",
                    Schema.string(
                        "The signing secret (`whsec_…`), only in the answer to webhooks.create and webhooks.rotateSecret: store it, it is not shown again.",
                        pattern: "^whsec_[A-Za-z0-9+/=]+$")
                ),
            ], required: ["id", "url", "description", "eventTypes", "status", "createdAt"], title: "WebhookEndpoint")
    }

    struct EndpointList: RPCResult {
        let endpoints: [EndpointView]
        static let schema: JSONValue = Schema.object([("endpoints", Schema.array(of: EndpointView.schema))], required: ["endpoints"])
    }

    static func view(_ endpoint: WebhookEndpoint, secret: String? = nil, call: RPCCall) async throws -> EndpointView {
        EndpointView(endpoint, bundleId: try await bundleIds(call)[endpoint.appId ?? UUID()], secret: secret)
    }

    static func bundleIds(_ call: RPCCall) async throws -> [UUID: String] {
        Dictionary(uniqueKeysWithValues: try await call.services.apps.list(tenant: call.caller.tenant).map { ($0.app.id, $0.app.bundleId) })
    }

    static let specParameters: [RPCParam] = [
        RPCParam(
            "url", "Where events are POSTed: an https URL whose host resolves to public addresses only.", schema: Schema.string(maxLength: 2048, format: "uri")),
        RPCParam("description", "A note for people (at most 200 characters).", schema: Schema.string(maxLength: 200), required: false),
        RPCParam("eventTypes", "Only these event types (all when absent or empty).", schema: Schema.array(of: EventView.typeSchema), required: false),
        RPCParam("bundleId", "Only this app's events.", schema: AppView.bundleIdSchema, required: false),
        RPCParam("environment", "Only this environment's events.", schema: Schema.enumeration(["Production", "Sandbox"]), required: false),
    ]

    struct SpecParams: RPCParams {
        let url: String
        let description: String?
        let eventTypes: [String]?
        let bundleId: String?
        let environment: String?

        var spec: WebhookEndpointSpec {
            WebhookEndpointSpec(url: url, description: description ?? "", eventTypes: eventTypes ?? [], bundleId: bundleId, environment: environment)
        }

        static let parameters = specParameters
    }

    static let create = RPCMethod<RPCCall>(
        "webhooks.create", tag: "webhooks", summary: "Adds an endpoint for the tenant's events; returns its secret, once.",
        description: """
            Events from now on that pass the filters are POSTed to `url`, signed per the Standard Webhooks specification \
            (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>`), at least once, \
            retried with backoff for 3 days. The answer carries the `whsec_` secret: it is not shown again.
            """,
        result: "endpoint", errors: [ErrorCode.invalidParams, ErrorCode.notFound, ErrorCode.conflict]
    ) { (params: SpecParams, call) in
        let created = try await call.services.webhooks.create(tenant: call.caller.tenant, params.spec, actor: call.caller.actor)
        return try await view(created.endpoint, secret: created.secret, call: call)
    }

    static let list = RPCMethod<RPCCall>(
        "webhooks.list", tag: "webhooks", summary: "The tenant's endpoints (never their secrets).", result: "endpoints"
    ) { (_: NoParams, call) in
        let ids = try await bundleIds(call)
        return EndpointList(
            endpoints: try await call.services.webhooks.list(tenant: call.caller.tenant).map { EndpointView($0, bundleId: $0.appId.flatMap { ids[$0] }) })
    }

    struct IdParams: RPCParams {
        let id: String
        static let parameters: [RPCParam] = [RPCParam("id", "The endpoint's id (`we_…`).", schema: Schema.string())]
    }

    struct UpdateParams: RPCParams {
        let id: String
        let url: String
        let description: String?
        let eventTypes: [String]?
        let bundleId: String?
        let environment: String?

        static let parameters: [RPCParam] = [RPCParam("id", "The endpoint's id (`we_…`).", schema: Schema.string())] + specParameters
    }

    static let update = RPCMethod<RPCCall>(
        "webhooks.update", tag: "webhooks", summary: "Replaces an endpoint's URL, description and filters.",
        description: "Filters left out are cleared (every type, every app, both environments). The secret is unchanged.", result: "endpoint",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: UpdateParams, call) in
        let spec = WebhookEndpointSpec(
            url: p.url, description: p.description ?? "", eventTypes: p.eventTypes ?? [], bundleId: p.bundleId, environment: p.environment)
        return try await view(try await call.services.webhooks.update(tenant: call.caller.tenant, id: p.id, spec, actor: call.caller.actor), call: call)
    }

    struct Deleted: RPCResult {
        let deleted: Bool
        static let schema: JSONValue = Schema.object([("deleted", ["type": "boolean"])], required: ["deleted"])
    }

    static let delete = RPCMethod<RPCCall>(
        "webhooks.delete", tag: "webhooks", summary: "Removes an endpoint, its secrets and its deliveries.", result: "deleted",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: IdParams, call) in
        try await call.services.webhooks.delete(tenant: call.caller.tenant, id: p.id, actor: call.caller.actor)
        return Deleted(deleted: true)
    }

    static let rotateSecret = RPCMethod<RPCCall>(
        "webhooks.rotateSecret", tag: "webhooks", summary: "A new secret, shown once; the old one keeps signing beside it for 24 hours.",
        description: """
            For 24 hours each message carries two signatures (`v1,<new> v1,<old>`), so receivers can switch secrets without missing a \
            message; then only the new one.
            """,
        result: "endpoint", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: IdParams, call) in
        let rotated = try await call.services.webhooks.rotateSecret(tenant: call.caller.tenant, id: p.id, actor: call.caller.actor)
        return try await view(rotated.endpoint, secret: rotated.secret, call: call)
    }

    struct TestResult: RPCResult {
        let statusCode: Int?
        let latencyMs: Int
        let error: String?
        let delivered: Bool

        static let schema: JSONValue = Schema.object(
            [
                ("statusCode", Schema.integer("The receiver's HTTP status; absent when none came.")), ("latencyMs", Schema.integer(minimum: 0)),
                ("error", Schema.string()), ("delivered", ["type": "boolean", "description": "A 2xx answer came."]),
            ], required: ["latencyMs", "delivered"])
    }

    static let test = RPCMethod<RPCCall>(
        "webhooks.test", tag: "webhooks", summary: "Sends a signed `webhook.test` message now and reports the answer.",
        description: "Not an event: it is neither stored nor retried, and `events.list` does not show it.", result: "test",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: IdParams, call) in
        let result = try await call.services.webhooks.test(tenant: call.caller.tenant, id: p.id)
        return TestResult(
            statusCode: result.statusCode, latencyMs: result.latencyMilliseconds, error: result.error,
            delivered: result.statusCode.map { (200..<300).contains($0) } ?? false)
    }

    struct DeliveriesParams: RPCParams {
        let endpointId: String?
        let status: String?
        let before: String?
        let limit: Int?

        static let parameters: [RPCParam] = [
            RPCParam("endpointId", "Only this endpoint's deliveries.", schema: Schema.string(), required: false),
            RPCParam("status", "Only deliveries in this state.", schema: Schema.enumeration(["pending", "delivered", "failed"]), required: false),
            RPCParam("before", "Only deliveries older than this one (`wd_…`, the last of the previous page).", schema: Schema.string(), required: false),
            RPCParam("limit", "At most this many (1…100, default 50).", schema: Schema.integer(minimum: 1), required: false),
        ]
    }

    struct DeliveryView: Encodable, Sendable {
        struct Attempt: Encodable, Sendable {
            let number: Int
            let attemptedAt: Date
            let statusCode: Int?
            let latencyMs: Int
            let error: String?
        }

        let id: String
        let endpointId: String
        let eventId: String
        let eventType: String
        let sequence: Int64
        let status: String
        let nextAttemptAt: Date?
        let createdAt: Date
        let finishedAt: Date?
        let attempts: [Attempt]
    }

    struct DeliveryList: RPCResult {
        let deliveries: [DeliveryView]

        static let schema: JSONValue = Schema.object(
            [
                (
                    "deliveries",
                    Schema.array(
                        of: Schema.object(
                            [
                                ("id", Schema.string(pattern: "^wd_[a-z2-7]{26}$")), ("endpointId", Schema.string()), ("eventId", Schema.string()),
                                ("eventType", EventView.typeSchema), ("sequence", Schema.integer(minimum: 1)),
                                ("status", Schema.enumeration(["pending", "delivered", "failed"], "`failed`: dead-lettered after 3 days of attempts.")),
                                ("nextAttemptAt", Schema.string(format: "date-time")), ("createdAt", Schema.string(format: "date-time")),
                                ("finishedAt", Schema.string(format: "date-time")),
                                (
                                    "attempts",
                                    Schema.array(
                                        of: Schema.object(
                                            [
                                                ("number", Schema.integer(minimum: 1)), ("attemptedAt", Schema.string(format: "date-time")),
                                                ("statusCode", Schema.integer()), ("latencyMs", Schema.integer(minimum: 0)), ("error", Schema.string()),
                                            ], required: ["number", "attemptedAt", "latencyMs"]))
                                ),
                            ], required: ["id", "endpointId", "eventId", "eventType", "sequence", "status", "createdAt", "attempts"], title: "WebhookDelivery"))
                )
            ], required: ["deliveries"])
    }

    static let deliveries = RPCMethod<RPCCall>(
        "webhooks.deliveries", tag: "webhooks", summary: "Deliveries, newest first, with every attempt's status code and latency.",
        result: "deliveries", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: DeliveriesParams, call) in
        let found = try await call.services.webhooks.deliveries(
            tenant: call.caller.tenant, endpointId: p.endpointId, status: p.status, before: p.before, limit: p.limit ?? 50)
        return DeliveryList(
            deliveries: found.map { d in
                DeliveryView(
                    id: d.displayId, endpointId: PrefixedID.encode("we_", d.endpointId), eventId: PrefixedID.encode("evt_", d.eventId),
                    eventType: d.eventType.rawValue, sequence: d.eventSequence, status: d.status.rawValue, nextAttemptAt: d.nextAttemptAt,
                    createdAt: d.createdAt, finishedAt: d.finishedAt,
                    attempts: d.attempts.map {
                        .init(number: $0.number, attemptedAt: $0.attemptedAt, statusCode: $0.statusCode, latencyMs: $0.latencyMilliseconds, error: $0.error)
                    })
            })
    }

    struct RedeliverParams: RPCParams {
        let deliveryId: String?
        let endpointId: String?
        let since: Date?

        static let parameters: [RPCParam] = [
            RPCParam("deliveryId", "Send this delivery again (`wd_…`), whatever its state.", schema: Schema.string(), required: false),
            RPCParam(
                "since", "Or: send again every dead-lettered delivery of events since this time (ISO 8601).", schema: Schema.string(format: "date-time"),
                required: false),
            RPCParam("endpointId", "With `since`: only this endpoint's.", schema: Schema.string(), required: false),
        ]
    }

    struct Redelivered: RPCResult {
        let redelivered: Int
        static let schema: JSONValue = Schema.object([("redelivered", Schema.integer(minimum: 0))], required: ["redelivered"])
    }

    static let redeliver = RPCMethod<RPCCall>(
        "webhooks.redeliver", tag: "webhooks", summary: "Sends one delivery, or every dead-lettered one since a time, again now.",
        description: "Give `deliveryId`, or `since` (and optionally `endpointId`). Each gets a fresh 3-day retry window.", result: "redelivered",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: RedeliverParams, call) in
        switch (p.deliveryId, p.since) {
        case (let id?, nil):
            guard p.endpointId == nil else { throw StoregateError.invalid(field: "endpointId", reason: "goes with since, not deliveryId") }
            return Redelivered(redelivered: try await call.services.webhooks.redeliver(tenant: call.caller.tenant, deliveryId: id, actor: call.caller.actor))
        case (nil, let since?):
            return Redelivered(
                redelivered: try await call.services.webhooks.redeliverFailed(
                    tenant: call.caller.tenant, endpointId: p.endpointId, since: since, actor: call.caller.actor))
        default:
            throw StoregateError.invalid(field: "deliveryId", reason: "give exactly one of deliveryId and since")
        }
    }
}
