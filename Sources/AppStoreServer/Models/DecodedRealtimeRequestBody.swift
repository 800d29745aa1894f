import Foundation

/// `DecodedRealtimeRequestBody`, as Apple defines it.
public struct DecodedRealtimeRequestBody: Codable, Hashable, Sendable {
    /// The original transaction identifier of the customer's subscription.
    public var originalTransactionId: String
    /// The unique identifier of the app in the App Store.
    public var appAppleId: Int64
    /// The unique identifier of the auto-renewable subscription.
    public var productId: String
    /// The device's locale.
    public var userLocale: String
    /// A UUID the App Store server creates to uniquely identify each request.
    public var requestIdentifier: LowercaseUUID
    /// The UNIX time, in milliseconds, that the App Store signed the JSON Web Signature (JWS) data.
    public var signedDate: Timestamp
    /// The server environment, either sandbox or production.
    public var environment: AppStoreEnvironment

    public init(
        originalTransactionId: String, appAppleId: Int64, productId: String, userLocale: String, requestIdentifier: LowercaseUUID, signedDate: Timestamp,
        environment: AppStoreEnvironment
    ) {
        self.originalTransactionId = originalTransactionId
        self.appAppleId = appAppleId
        self.productId = productId
        self.userLocale = userLocale
        self.requestIdentifier = requestIdentifier
        self.signedDate = signedDate
        self.environment = environment
    }
}
