import AppStoreServer
import Foundation
import KeyVault

/// A URL of the tenant's to which its events are sent, signed per the Standard Webhooks specification.
public struct WebhookEndpoint: Sendable, Equatable {
    public let id: UUID
    public let tenantId: UUID
    public var url: String
    public var description: String
    /// Only these event types; every type when empty.
    public var eventTypes: [Event.Kind]
    /// Only this app's events, when set.
    public var appId: UUID?
    /// Only this environment's events, when set.
    public var environment: AppStoreEnvironment?
    /// Since when every delivery to it has failed for the whole retry window; nil while it is healthy.
    public var failingSince: Date?
    public let createdAt: Date

    public init(
        id: UUID, tenantId: UUID, url: String, description: String, eventTypes: [Event.Kind], appId: UUID?, environment: AppStoreEnvironment?,
        failingSince: Date?, createdAt: Date
    ) {
        self.id = id
        self.tenantId = tenantId
        self.url = url
        self.description = description
        self.eventTypes = eventTypes
        self.appId = appId
        self.environment = environment
        self.failingSince = failingSince
        self.createdAt = createdAt
    }

    /// Shown as `we_` and 26 base32 characters.
    public var displayId: String { PrefixedID.encode("we_", id) }

    /// Whether an event is delivered here: one of its types (any when it names none), of its app (any app's
    /// when it names none; an event of no app only then), in its environment (likewise). The SQL that
    /// writes an event's deliveries as the event is appended (`EventStore.append`) applies this rule;
    /// `WebhookTests.theDeliveriesWrittenWithEventsAreThoseTheEndpointFilterSays` holds it to it.
    public func receives(_ type: Event.Kind, appId: UUID?, environment: AppStoreEnvironment?) -> Bool {
        (eventTypes.isEmpty || eventTypes.contains(type)) && (self.appId == nil || self.appId == appId)
            && (self.environment == nil || self.environment == environment)
    }
}

/// A signing secret of an endpoint, sealed at rest. After a rotation the previous one keeps signing
/// (beside the new one) until `expiresAt`.
public struct SealedWebhookSecret: Sendable, Equatable {
    public let id: UUID
    public let endpointId: UUID
    public let sealed: SealedKey
    public let expiresAt: Date?

    public init(id: UUID, endpointId: UUID, sealed: SealedKey, expiresAt: Date?) {
        self.id = id
        self.endpointId = endpointId
        self.sealed = sealed
        self.expiresAt = expiresAt
    }

    /// Binds the sealed secret to its tenant, endpoint and id.
    public static func associatedData(tenantId: UUID, endpointId: UUID, secretId: UUID) -> Data {
        Data("storegate.webhook.v1|\(tenantId.uuidString.lowercased())|\(endpointId.uuidString.lowercased())|\(secretId.uuidString.lowercased())".utf8)
    }
}

/// One event due at one endpoint, and every attempt to send it.
public struct WebhookDelivery: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable {
        /// Not yet delivered; attempted again at `nextAttemptAt`.
        case pending
        case delivered
        /// Dead-lettered: every attempt failed for the whole retry window (`webhooks.redeliver` sends it again).
        case failed
    }

    public struct Attempt: Sendable, Equatable {
        public let number: Int
        public let attemptedAt: Date
        /// The receiver's HTTP status; nil when none came (refused, timed out, no such host).
        public let statusCode: Int?
        public let latencyMilliseconds: Int
        public let error: String?

        public init(number: Int, attemptedAt: Date, statusCode: Int?, latencyMilliseconds: Int, error: String?) {
            self.number = number
            self.attemptedAt = attemptedAt
            self.statusCode = statusCode
            self.latencyMilliseconds = latencyMilliseconds
            self.error = error
        }

        /// A 2xx answer.
        public var succeeded: Bool { statusCode.map { (200..<300).contains($0) } ?? false }
    }

    public let id: UUID
    public let endpointId: UUID
    public let eventSequence: Int64
    public let eventId: UUID
    public let eventType: Event.Kind
    public let status: Status
    public let nextAttemptAt: Date?
    public let createdAt: Date
    public let finishedAt: Date?
    public let attempts: [Attempt]

    public init(
        id: UUID, endpointId: UUID, eventSequence: Int64, eventId: UUID, eventType: Event.Kind, status: Status, nextAttemptAt: Date?, createdAt: Date,
        finishedAt: Date?, attempts: [Attempt]
    ) {
        self.id = id
        self.endpointId = endpointId
        self.eventSequence = eventSequence
        self.eventId = eventId
        self.eventType = eventType
        self.status = status
        self.nextAttemptAt = nextAttemptAt
        self.createdAt = createdAt
        self.finishedAt = finishedAt
        self.attempts = attempts
    }

    /// Shown as `wd_` and 26 base32 characters.
    public var displayId: String { PrefixedID.encode("wd_", id) }
}

/// A delivery claimed for sending: its event, and how many attempts it has had.
public struct DueDelivery: Sendable {
    public let id: UUID
    public let eventSequence: Int64
    public let attempts: Int
    public let retryFrom: Date

    public init(id: UUID, eventSequence: Int64, attempts: Int, retryFrom: Date) {
        self.id = id
        self.eventSequence = eventSequence
        self.attempts = attempts
        self.retryFrom = retryFrom
    }
}

/// An attempt to send a delivery and what follows from it.
public struct DeliveryResult: Sendable {
    public let deliveryId: UUID
    public let attempt: WebhookDelivery.Attempt
    /// `delivered`, `pending` (tried again at `next`) or `failed` (dead-lettered).
    public let outcome: WebhookDelivery.Status
    public let next: Date?

    public init(deliveryId: UUID, attempt: WebhookDelivery.Attempt, outcome: WebhookDelivery.Status, next: Date?) {
        self.deliveryId = deliveryId
        self.attempt = attempt
        self.outcome = outcome
        self.next = next
    }
}
