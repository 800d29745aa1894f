import Foundation

/// `AppData`, as Apple defines it.
public struct AppData: Codable, Hashable, Sendable {
    /// The unique identifier of the app that the notification applies to.
    public var appAppleId: Int64?
    /// The bundle identifier of the app.
    public var bundleId: String?
    /// The server environment that the notification applies to, either sandbox or production.
    public var environment: AppStoreEnvironment?
    /// App transaction information signed by the App Store, in JSON Web Signature (JWS) format.
    public var signedAppTransactionInfo: String?

    public init(appAppleId: Int64? = nil, bundleId: String? = nil, environment: AppStoreEnvironment? = nil, signedAppTransactionInfo: String? = nil) {
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.environment = environment
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }
}
