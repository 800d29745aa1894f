import AppStoreServer
import Foundation
import JSONRPC
import Storegate

/// `webhooks.*`: the tenant's endpoints for its events, their secrets and deliveries.
enum WebhookMethods {
    static let all = [create, list, update, delete, rotateSecret, test, deliveries, redeliver]

    @RPCObject struct EndpointList {
        let endpoints: [WebhookEndpointInfo]
    }

    @RPCParams struct SpecParams {
        @Field(.webhookURL) let url: String
        @Field(.webhookDescription) let description: String?
        @Field(.webhookEventTypes) let eventTypes: [Event.Kind]?
        /// Only this app's events.
        @Field(.bundleId) let bundleId: String?
        @Field(.webhookEnvironment) let environment: String?

        var spec: WebhookEndpointSpec {
            WebhookEndpointSpec(
                url: url, description: description ?? "", eventTypes: eventTypes?.map(\.rawValue) ?? [], bundleId: bundleId, environment: environment)
        }
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
        try await call.capabilities.webhooks.create(tenant: call.caller.tenant, params.spec, actor: call.caller.actor)
    }

    static let list = RPCMethod<RPCCall>(
        "webhooks.list", tag: "webhooks", summary: "The tenant's endpoints (never their secrets).", result: "endpoints"
    ) { (_: NoParams, call) in
        EndpointList(endpoints: try await call.capabilities.webhooks.list(tenant: call.caller.tenant))
    }

    @RPCParams struct IdParams {
        @Field(.endpointId) let id: String
    }

    @RPCParams struct UpdateParams {
        @Field(.endpointId) let id: String
        @Field(.webhookURL) let url: String
        @Field(.webhookDescription) let description: String?
        @Field(.webhookEventTypes) let eventTypes: [Event.Kind]?
        /// Only this app's events.
        @Field(.bundleId) let bundleId: String?
        @Field(.webhookEnvironment) let environment: String?
    }

    static let update = RPCMethod<RPCCall>(
        "webhooks.update", tag: "webhooks", summary: "Replaces an endpoint's URL, description and filters.",
        description: "Filters left out are cleared (every type, every app, both environments). The secret is unchanged.", result: "endpoint",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: UpdateParams, call) in
        let spec = WebhookEndpointSpec(
            url: p.url, description: p.description ?? "", eventTypes: p.eventTypes?.map(\.rawValue) ?? [], bundleId: p.bundleId, environment: p.environment)
        return try await call.capabilities.webhooks.update(tenant: call.caller.tenant, id: p.id, spec, actor: call.caller.actor)
    }

    static let delete = RPCMethod<RPCCall>(
        "webhooks.delete", tag: "webhooks", summary: "Removes an endpoint, its secrets and its deliveries.", result: "deleted",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: IdParams, call) in
        try await call.capabilities.webhooks.delete(tenant: call.caller.tenant, id: p.id, actor: call.caller.actor)
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
        try await call.capabilities.webhooks.rotateSecret(tenant: call.caller.tenant, id: p.id, actor: call.caller.actor)
    }

    @RPCObject struct TestResult {
        /// The receiver's HTTP status; absent when none came.
        let statusCode: Int?
        @Field(.minimum(0)) let latencyMs: Int
        let error: String?
        /// A 2xx answer came.
        let delivered: Bool
    }

    static let test = RPCMethod<RPCCall>(
        "webhooks.test", tag: "webhooks", summary: "Sends a signed `webhook.test` message now and reports the answer.",
        description: "Not an event: it is neither stored nor retried, and `events.list` does not show it.", result: "test",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: IdParams, call) in
        let result = try await call.capabilities.webhooks.test(tenant: call.caller.tenant, id: p.id)
        return TestResult(
            statusCode: result.statusCode, latencyMs: result.latencyMilliseconds, error: result.error,
            delivered: result.statusCode.map { (200..<300).contains($0) } ?? false)
    }

    @RPCParams struct DeliveriesParams {
        /// Only this endpoint's deliveries.
        @Field(.endpointId) let endpointId: String?
        /// Only deliveries in this state.
        @Field(.deliveryStatus) let status: String?
        /// Only deliveries older than this one (`wd_…`, the last of the previous page).
        @Field(.deliveryId) let before: String?
        /// At most this many.
        @Field(.page(WebhookService.deliveriesPage)) let limit: Int?
    }

    @RPCObject(title: "WebhookDelivery") struct DeliveryView {
        @RPCObject struct Attempt {
            @Field(.minimum(1)) let number: Int
            let attemptedAt: Date
            let statusCode: Int?
            @Field(.minimum(0)) let latencyMs: Int
            let error: String?
        }

        @Field(.deliveryId) let id: String
        @Field(.endpointId) let endpointId: String
        @Field(.characters("a-z2-7", count: 26...26, prefix: "evt_")) let eventId: String
        let eventType: Event.Kind
        @Field(.minimum(1)) let sequence: Int64
        /// `failed`: dead-lettered after 3 days of attempts.
        @Field(.deliveryStatus) let status: String
        let nextAttemptAt: Date?
        let createdAt: Date
        let finishedAt: Date?
        let attempts: [Attempt]
    }

    @RPCObject struct DeliveryList {
        let deliveries: [DeliveryView]
    }

    static let deliveries = RPCMethod<RPCCall>(
        "webhooks.deliveries", tag: "webhooks", summary: "Deliveries, newest first, with every attempt's status code and latency.",
        result: "deliveries", errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: DeliveriesParams, call) in
        let found = try await call.capabilities.webhooks.deliveries(
            tenant: call.caller.tenant, endpointId: p.endpointId, status: p.status, before: p.before, limit: p.limit)
        return DeliveryList(
            deliveries: found.map { d in
                DeliveryView(
                    id: d.displayId, endpointId: PrefixedID.encode("we_", d.endpointId), eventId: PrefixedID.encode("evt_", d.eventId),
                    eventType: d.eventType, sequence: d.eventSequence, status: d.status.rawValue, nextAttemptAt: d.nextAttemptAt,
                    createdAt: d.createdAt, finishedAt: d.finishedAt,
                    attempts: d.attempts.map {
                        .init(number: $0.number, attemptedAt: $0.attemptedAt, statusCode: $0.statusCode, latencyMs: $0.latencyMilliseconds, error: $0.error)
                    })
            })
    }

    @RPCParams struct RedeliverParams {
        /// Send this delivery again (`wd_…`), whatever its state.
        @Field(.deliveryId) let deliveryId: String?
        /// Or: send again every dead-lettered delivery of events since this time (ISO 8601).
        let since: Date?
        /// With `since`: only this endpoint's.
        @Field(.endpointId) let endpointId: String?
    }

    @RPCObject struct Redelivered {
        @Field(.minimum(0)) let redelivered: Int
    }

    static let redeliver = RPCMethod<RPCCall>(
        "webhooks.redeliver", tag: "webhooks", summary: "Sends one delivery, or every dead-lettered one since a time, again now.",
        description: "Give `deliveryId`, or `since` (and optionally `endpointId`). Each gets a fresh 3-day retry window.", result: "redelivered",
        errors: [ErrorCode.invalidParams, ErrorCode.notFound]
    ) { (p: RedeliverParams, call) in
        switch (p.deliveryId, p.since) {
        case (let id?, nil):
            guard p.endpointId == nil else { throw StoregateError.invalid(field: "endpointId", reason: "goes with since, not deliveryId") }
            return Redelivered(
                redelivered: try await call.capabilities.webhooks.redeliver(tenant: call.caller.tenant, deliveryId: id, actor: call.caller.actor))
        case (nil, let since?):
            return Redelivered(
                redelivered: try await call.capabilities.webhooks.redeliverFailed(
                    tenant: call.caller.tenant, endpointId: p.endpointId, since: since, actor: call.caller.actor))
        default:
            throw StoregateError.invalid(field: "deliveryId", reason: "give exactly one of deliveryId and since")
        }
    }
}
