import AppStoreServer
import Contract
import Foundation

/// An app of a tenant, known by its bundle ID, in the App Store environments it uses.
public struct App: Sendable, Equatable {
    public let id: UUID
    public let tenantId: UUID
    public let bundleId: String
    public let appAppleId: Int64?
    /// `Production` and/or `Sandbox`, in that order.
    public let environments: [AppStoreEnvironment]
    public let createdAt: Date

    public init(id: UUID, tenantId: UUID, bundleId: String, appAppleId: Int64?, environments: [AppStoreEnvironment], createdAt: Date) {
        self.id = id
        self.tenantId = tenantId
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environments = environments
        self.createdAt = createdAt
    }

    /// The app's environments in the order Apple advises trying them when the environment is not known:
    /// Production first.
    public var environmentsProductionFirst: [AppStoreEnvironment] {
        environments.sorted { $0 == .production && $1 != .production }
    }

    /// The environment to use when the caller names none: Production when the app has it.
    public func environment(_ given: AppStoreEnvironment?, field: String = "environment") throws(StoregateError) -> AppStoreEnvironment {
        guard let given else { return environments.contains(.production) ? .production : environments.first ?? .sandbox }
        guard environments.contains(given) else {
            throw .invalid(field: field, reason: "must be one of the app's environments: " + environments.map(\.rawValue).joined(separator: ", "))
        }
        return given
    }
}

/// An App Store Connect key of an app. The private key is stored sealed and never leaves the key store.
public struct AppKey: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// An In-App Purchase key: signs App Store Server API tokens and offers.
        case inAppPurchase
    }

    public let id: UUID
    public let tenantId: UUID
    public let appId: UUID
    public let kind: Kind
    public let keyId: String
    public let issuerId: UUID
    /// The P-256 public key, x9.63.
    public let publicKey: Data
    public let createdAt: Date

    public init(id: UUID, tenantId: UUID, appId: UUID, kind: Kind, keyId: String, issuerId: UUID, publicKey: Data, createdAt: Date) {
        self.id = id
        self.tenantId = tenantId
        self.appId = appId
        self.kind = kind
        self.keyId = keyId
        self.issuerId = issuerId
        self.publicKey = publicKey
        self.createdAt = createdAt
    }
}

/// The paths Apple calls for an app in one environment, under Storegate's public URL, each with the
/// environment's notification URL token: its notifications and its Get Retention Message requests.
public enum AppleEndpoint: String, Sendable {
    case notifications, retention

    /// `<publicURL>/apple/<endpoint>/<token>`.
    public func url(publicURL: String, token: String) -> String {
        (publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL) + "/apple/\(rawValue)/" + token
    }
}

/// Where Apple sends an app's notifications for one environment: `/apple/notifications/<token>` (and its
/// Get Retention Message requests: `/apple/retention/<token>`). Kept in `storegate.webhooks`, the table's name
/// from before outbound webhooks (`WebhookEndpoint`) existed.
public struct NotificationURL: Sendable, Equatable {
    public let token: String
    public let tenantId: UUID
    public let appId: UUID
    public let environment: AppStoreEnvironment

    public init(token: String, tenantId: UUID, appId: UUID, environment: AppStoreEnvironment) {
        self.token = token
        self.tenantId = tenantId
        self.appId = appId
        self.environment = environment
    }
}

/// The API shows its cases as the JSON Schema `enum`; any other value is refused.
extension AppKey.Kind: JSONSchemaType, Encodable {}
