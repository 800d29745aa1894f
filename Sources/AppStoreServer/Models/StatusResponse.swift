import Foundation

/// `StatusResponse`, as Apple defines it.
public struct StatusResponse: Codable, Hashable, Sendable {
    /// The server environment, sandbox or production, in which the App Store generated the response.
    public var environment: AppStoreEnvironment?
    /// The bundle identifier of an app.
    public var bundleId: String?
    /// The unique identifier of an app in the App Store.
    public var appAppleId: Int64?
    /// An array of information for auto-renewable subscriptions, including App Store-signed transaction information and App Store-signed renewal information.
    public var data: [SubscriptionGroupIdentifierItem]?

    public init(environment: AppStoreEnvironment? = nil, bundleId: String? = nil, appAppleId: Int64? = nil, data: [SubscriptionGroupIdentifierItem]? = nil) {
        self.environment = environment
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.data = data
    }
}
