import Contract
import Foundation

/// An app developer using Storegate. Each tenant's data lives apart from every other tenant's.
public struct Tenant: Sendable, Equatable {
    public enum Status: String, Sendable, Codable, CaseIterable {
        case active, suspended
    }

    public let id: UUID
    public let slug: String
    public var name: String
    /// Where the tenant's own data is stored: a name the server generated, never taken from input.
    public let storageName: String
    public var status: Status
    public let schemaVersion: Int
    public let createdAt: Date
    /// How Storegate reconciles this tenant's data with Apple, where its manifest says.
    public var reconciliation: Reconciliation
    /// How long the tenant keeps notification payloads, events, deliveries, audit entries and ended sessions.
    public var dataRetention: DataRetention

    /// A tenant's own reconciliation settings (its manifest's `reconciliation`); nil is the server's.
    public struct Reconciliation: Sendable, Equatable {
        /// How often each app's notification history is swept, in minutes; 0: never.
        public var sweepMinutes: Int?
        /// How long after a subscription's expiry with no renewal heard of Apple is asked, in minutes.
        public var renewalCheckMinutes: Int?

        public init(sweepMinutes: Int? = nil, renewalCheckMinutes: Int? = nil) {
            self.sweepMinutes = sweepMinutes
            self.renewalCheckMinutes = renewalCheckMinutes
        }
    }

    public init(
        id: UUID, slug: String, name: String, storageName: String, status: Status, schemaVersion: Int, createdAt: Date,
        reconciliation: Reconciliation = Reconciliation(), dataRetention: DataRetention = DataRetention()
    ) {
        self.id = id
        self.slug = slug
        self.name = name
        self.storageName = storageName
        self.status = status
        self.schemaVersion = schemaVersion
        self.createdAt = createdAt
        self.reconciliation = reconciliation
        self.dataRetention = dataRetention
    }
}

/// The API shows its cases as the JSON Schema `enum`; any other value is refused.
extension Tenant.Status: JSONSchemaType {}
