import Foundation

/// `Summary`, as Apple defines it.
public struct Summary: Codable, Hashable, Sendable {
    /// The server environment that the notification applies to, either sandbox or production.
    public var environment: AppStoreEnvironment?
    /// The unique identifier of an app in the App Store.
    public var appAppleId: Int64?
    /// The bundle identifier of an app.
    public var bundleId: String?
    /// The unique identifier for the product, that you create in App Store Connect.
    public var productId: String?
    /// A string that contains a unique identifier you provide to track each subscription-renewal-date extension request.
    public var requestIdentifier: String?
    /// A list of storefront country codes you provide to limit the storefronts for a subscription-renewal-date extension.
    public var storefrontCountryCodes: [String]?
    /// The count of subscriptions that successfully receive a subscription-renewal-date extension.
    public var succeededCount: Int64?
    /// The count of subscriptions that fail to receive a subscription-renewal-date extension.
    public var failedCount: Int64?

    public init(
        environment: AppStoreEnvironment? = nil, appAppleId: Int64? = nil, bundleId: String? = nil, productId: String? = nil, requestIdentifier: String? = nil,
        storefrontCountryCodes: [String]? = nil, succeededCount: Int64? = nil, failedCount: Int64? = nil
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.productId = productId
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}
