import Foundation
import JSONRPC
import Storegate

/// `events.list`: the tenant's events as a feed, in order and without gaps.
enum EventMethods {
    static let all = [list]

    struct ListParams: RPCParams {
        let after: Int64?
        let limit: Int?
        let types: [String]?

        static let parameters: [RPCParam] = [
            RPCParam(
                "after", "The last sequence number the reader has (0, the default, reads from the first event).", schema: Schema.integer(minimum: 0),
                required: false),
            RPCParam("limit", "At most this many (1…500, default 100).", schema: Schema.integer(minimum: 1), required: false),
            RPCParam("types", "Only these event types.", schema: Schema.array(of: EventView.typeSchema), required: false),
        ]
    }

    struct ListResult: RPCResult {
        let events: [RawJSON]
        /// Where to read on from: the last sequence number returned, or `after` when there were none.
        let next: Int64

        static let schema: JSONValue = Schema.object(
            [
                ("events", Schema.array(of: EventView.schema)),
                ("next", Schema.integer("Pass as `after` to read on (the last sequence number returned, or `after` when none were).", minimum: 0)),
            ], required: ["events", "next"])
    }

    static let list = RPCMethod<RPCCall>(
        "events.list", tag: "events", summary: "The tenant's events after a sequence number, oldest first.",
        description: """
            Every event of the tenant is numbered 1, 2, 3, … in the order its change committed, without gaps: read with `after` set to \
            the last `sequence` you have (`next`) and you miss none. Each event is exactly what webhooks send.
            """,
        result: "events", errors: [ErrorCode.invalidParams]
    ) { (params: ListParams, call) in
        let after = params.after ?? 0
        var types: [Event.Kind] = []
        for (index, name) in (params.types ?? []).enumerated() {
            guard let type = Event.Kind(rawValue: name) else { throw StoregateError.invalid(field: "types[\(index)]", reason: "is not an event type") }
            types.append(type)
        }
        let events = try await call.services.events.list(tenant: call.caller.tenant, after: after, types: types, limit: params.limit ?? 100)
        return ListResult(events: try events.map(EventView.json), next: events.last?.sequence ?? after)
    }
}

/// An event as `events.list` returns it and a webhook sends it.
enum EventView {
    static func json(_ event: Event) throws -> RawJSON {
        RawJSON(value: try JSONParser.parse(Array(try event.json().utf8)))
    }

    static let typeSchema = Schema.enumeration(Event.Kind.allCases.map(\.rawValue))

    static let schema = Schema.object(
        [
            ("id", Schema.string("`evt_` and 26 base32 characters; the `webhook-id` of its deliveries.", pattern: "^evt_[a-z2-7]{26}$")),
            ("type", typeSchema), ("sequence", Schema.integer("The tenant's own count, in commit order, without gaps.", minimum: 1)),
            ("createdAt", Schema.string(format: "date-time")), ("appId", Schema.string(format: "uuid")), ("bundleId", AppView.bundleIdSchema),
            ("environment", Schema.enumeration(["Production", "Sandbox", "Xcode", "LocalTesting"])),
            ("customerId", Schema.string("The tenant's id of the customer, when known.")),
            (
                "data",
                [
                    "type": "object",
                    "description": """
                    What happened; by type: `subscription.updated` (originalTransactionId, previous and current state), \
                    `purchase.created` (the transaction), `refund.*` (the refund and, for a grant, what to revoke), \
                    `consumption.requested` (transaction, deadline), `consumption.sent|notSent`, `account.linked|transferred` \
                    (identifier, customer), `notification.received` (Apple's signedPayload and the notification's type).
                    """,
                ]
            ),
        ], required: ["id", "type", "sequence", "createdAt", "data"], title: "Event")
}
