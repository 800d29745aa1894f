import AppStoreServer
import Contract
import Foundation

/// A customer of a tenant's app, known by the tenant's own `customerId`, with a stable `appAccountToken`.
public struct Customer: Sendable, Equatable {
    public let id: UUID
    public let customerId: String
    public let appAccountToken: UUID
    public let createdAt: Date

    public init(id: UUID, customerId: String, appAccountToken: UUID, createdAt: Date) {
        self.id = id
        self.customerId = customerId
        self.appAccountToken = appAccountToken
        self.createdAt = createdAt
    }
}
/// An App Store identifier of an app linked to a customer.
public struct AccountLink: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case appTransactionId, originalTransactionId
    }

    public let appId: UUID
    public let kind: Kind
    public let value: String
    public let customer: UUID
    public let linkedAt: Date

    public init(appId: UUID, kind: Kind, value: String, customer: UUID, linkedAt: Date) {
        self.appId = appId
        self.kind = kind
        self.value = value
        self.customer = customer
        self.linkedAt = linkedAt
    }
}

/// The API shows its cases as the JSON Schema `enum`; any other value is refused.
extension AccountLink.Kind: JSONSchemaType, Encodable {}
