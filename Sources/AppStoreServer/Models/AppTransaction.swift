import Foundation

/// `AppTransaction`, as Apple defines it.
public struct AppTransaction: Codable, Hashable, Sendable {
    /// The date that the App Store signed the JWS app transaction.
    public var receiptType: AppStoreEnvironment?
    /// The unique identifier the App Store uses to identify the app.
    public var appAppleId: Int64?
    /// The bundle identifier that the app transaction applies to.
    public var bundleId: String?
    /// The app version that the app transaction applies to.
    public var applicationVersion: String?
    /// The version external identifier of the app
    public var versionExternalIdentifier: Int64?
    /// The date that the App Store signed the JWS app transaction.
    public var receiptCreationDate: Timestamp?
    /// The date the customer originally purchased the app from the App Store.
    public var originalPurchaseDate: Timestamp?
    /// The app version that the user originally purchased from the App Store.
    public var originalApplicationVersion: String?
    /// The Base64 device verification value to use to verify whether the app transaction belongs to the device.
    public var deviceVerification: String?
    /// The UUID used to compute the device verification value.
    public var deviceVerificationNonce: LowercaseUUID?
    /// The date the customer placed an order for the app before it’s available in the App Store.
    public var preorderDate: Timestamp?
    /// The unique identifier of the app download transaction.
    public var appTransactionId: String?
    /// The platform on which the customer originally purchased the app.
    public var originalPlatform: PurchasePlatform?

    public init(
        receiptType: AppStoreEnvironment? = nil, appAppleId: Int64? = nil, bundleId: String? = nil, applicationVersion: String? = nil,
        versionExternalIdentifier: Int64? = nil, receiptCreationDate: Timestamp? = nil, originalPurchaseDate: Timestamp? = nil,
        originalApplicationVersion: String? = nil, deviceVerification: String? = nil, deviceVerificationNonce: LowercaseUUID? = nil,
        preorderDate: Timestamp? = nil, appTransactionId: String? = nil, originalPlatform: PurchasePlatform? = nil
    ) {
        self.receiptType = receiptType
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.versionExternalIdentifier = versionExternalIdentifier
        self.receiptCreationDate = receiptCreationDate
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.preorderDate = preorderDate
        self.appTransactionId = appTransactionId
        self.originalPlatform = originalPlatform
    }
}
